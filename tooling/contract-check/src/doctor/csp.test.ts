import { cspAllows, parseCsp } from './csp';

const SELF = 'https://app.example.com';

test.each([
  ["connect-src 'self'", 'https://app.example.com', true],
  ["connect-src 'self'", 'https://sso.example.com', false],
  ['connect-src https://sso.example.com', 'https://sso.example.com', true],
  ['connect-src https://sso.example.com', 'https://sso.example.com:8443', false],
  ['connect-src https://sso.example.com:8443', 'https://sso.example.com:8443', true],
  ['connect-src https://*.example.com', 'https://sso.example.com', true],
  ['connect-src https://*.example.com', 'https://example.com', false],
  ['connect-src https:', 'https://anything.test', true],
  ['connect-src http:', 'https://anything.test', true],
  ['connect-src sso.example.com', 'https://sso.example.com', true],
  ['connect-src *', 'https://sso.example.com', true],
  ["default-src 'self' https://sso.example.com", 'https://sso.example.com', true],
  ["default-src 'self'; connect-src 'self'", 'https://sso.example.com', false],
  ["script-src 'self'", 'https://sso.example.com', true], // connect-src absent, no default-src: nothing restricts it
])('%s → %s: %s', (header, origin, allowed) => {
  expect(cspAllows(parseCsp(header), 'connect-src', origin, SELF)).toBe(allowed);
});

test('frame-src falls back to child-src, then default-src', () => {
  expect(cspAllows(parseCsp("default-src 'self'; child-src https://sso.example.com"), 'frame-src', 'https://sso.example.com', SELF)).toBe(
    true,
  );
  expect(cspAllows(parseCsp("default-src 'self'"), 'frame-src', 'https://sso.example.com', SELF)).toBe(false);
});
