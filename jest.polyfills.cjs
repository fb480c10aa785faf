// The same polyfills a remote in its own repository gets from @gatehouse/federation/jest-polyfills.
require('./tooling/federation/jest/polyfills.cjs');
