import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as api from './index';
import * as testing from './testing';

test('the public entry names the documented exports', () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      'AuthError', 'AuthProvider', 'RequireAuth', 'RequireRole', 'SILENT_CHECK_SSO_HTML', 'SILENT_CHECK_SSO_SCRIPT', 'VERSION',
      'authFetch', 'createSession', 'getSession', 'preloadIdentityClient',
      'useAuth', 'useRoles', 'useSignInOnce', 'useToken', 'useUser', 'whenSession',
    ].sort(),
  );
  expect(Object.keys(testing).sort()).toEqual(['createTestSession', 'setPageSession']);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.(m?[jt]sx?)$/.test(name) ? [path] : [];
  });
}

test('keycloak-js is imported only by the session boundary', () => {
  const root = join(__dirname, '..');
  const importers = sourceFiles(join(root, 'src'))
    .filter((file) => !/\.test\.tsx?$/.test(file))
    .filter((file) => /from 'keycloak-js'|import\('keycloak-js'\)|require\('keycloak-js'\)/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
  expect(importers).toEqual(['src/session/keycloak.ts']);
});

test('no console output or web storage in the session code', () => {
  const root = join(__dirname);
  const offenders = sourceFiles(root)
    .filter((file) => !/\.test\.tsx?$|test-support/.test(file))
    .filter((file) => /console\.(log|info|debug|error)|localStorage|sessionStorage|document\.cookie/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
  expect(offenders).toEqual([]);
});

test('source files stay small', () => {
  const large = sourceFiles(__dirname).filter((file) => readFileSync(file, 'utf8').split('\n').length > 300);
  expect(large).toEqual([]);
});
