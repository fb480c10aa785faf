// jest setupFiles entry for a Gatehouse app's unit tests (`@gatehouse/federation/jest-polyfills`):
// jsdom lacks TextEncoder/TextDecoder, which react-router 7 uses at import time.
const { TextDecoder, TextEncoder } = require('node:util');

Object.assign(globalThis, { TextEncoder, TextDecoder });
