import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Every name an entry exports, types included, as the compiler sees it. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], { jsx: ts.JsxEmit.ReactJSX, skipLibCheck: true, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker
    .getExportsOfModule(module)
    .map((symbol) => symbol.name)
    .sort();
}

test("the public entry exports exactly these types and values, and the testing entry what a remote's unit test needs", () => {
  expect(exportedNames(join(__dirname, 'index.ts'))).toEqual(
    [
      // values
      'AuthError',
      'AuthProvider',
      'RequireAuth',
      'RequireRole',
      'SignedInUser',
      'VERSION',
      'authFetch',
      'createSession',
      'getSession',
      'preloadIdentityClient',
      'remoteView',
      'useAuth',
      'useRoles',
      'useSessionExpiry',
      'useSignInOnce',
      'useToken',
      'useUser',
      'whenSession',
      // types: the contract's, and the props and results of the React layer
      'ApiBinding',
      'AuthErrorCode',
      'AuthProviderProps',
      'AuthState',
      'LoginOptions',
      'LogoutOptions',
      'Profile',
      'RefreshFailure',
      'RequireAuthProps',
      'RequireRoleProps',
      'Roles',
      'Session',
      'SessionConfig',
      'SessionEvent',
      'SessionExpiryState',
      'SessionSnapshot',
      'SessionStatus',
      'SessionWatch',
      'SignOutReason',
      'SignedInUserProps',
      'TokenOptions',
      'User',
    ].sort(),
  );
  expect(exportedNames(join(__dirname, 'testing', 'index.ts'))).toEqual(
    ['TestSession', 'TestSessionCalls', 'TestSessionOptions', 'createTestSession', 'setPageSession'].sort(),
  );
}, 30_000);

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
