import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SILENT_CHECK_SSO_HTML, SILENT_CHECK_SSO_SCRIPT } from './silentCheckSso';

const shipped = (file: string) => readFileSync(join(__dirname, '..', 'public', file), 'utf8');

test('the exported page and script equal the shipped files', () => {
  expect(shipped('silent-check-sso.html')).toBe(SILENT_CHECK_SSO_HTML);
  expect(shipped('silent-check-sso.js')).toBe(SILENT_CHECK_SSO_SCRIPT);
});

test('the page posts its address to its parent on its own origin only', () => {
  expect(SILENT_CHECK_SSO_SCRIPT).toContain('parent.postMessage(location.href, location.origin)');
});

test('the page has no inline script, so a CSP without unsafe-inline allows it', () => {
  expect(SILENT_CHECK_SSO_HTML).toMatch(/<script src="silent-check-sso\.js"><\/script>/);
  expect(SILENT_CHECK_SSO_HTML).not.toMatch(/<script>/);
});
