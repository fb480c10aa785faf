import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The page keycloak-js loads in a hidden frame for silent check-sso, shipped as public/silent-check-sso.{html,js}.
const shipped = (file: string) => readFileSync(join(__dirname, '..', 'public', file), 'utf8');

test('the page posts its address to its parent on its own origin only', () => {
  expect(shipped('silent-check-sso.js')).toBe('parent.postMessage(location.href, location.origin);\n');
});

test('the page has no inline script, so a CSP without unsafe-inline allows it', () => {
  expect(shipped('silent-check-sso.html')).toMatch(/<script src="silent-check-sso\.js"><\/script>/);
  expect(shipped('silent-check-sso.html')).not.toMatch(/<script>/);
});
