import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SILENT_CHECK_SSO_HTML } from './silentCheckSso';

test('the exported page equals the shipped silent-check-sso.html', () => {
  expect(readFileSync(join(__dirname, '..', 'silent-check-sso.html'), 'utf8')).toBe(SILENT_CHECK_SSO_HTML);
});

test('the page posts its address to its parent on its own origin only', () => {
  expect(SILENT_CHECK_SSO_HTML).toContain('parent.postMessage(location.href, location.origin)');
});
