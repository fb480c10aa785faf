// Rules about what the package's source may do. What it exports, with every signature, is pinned by
// apiReport.test.ts (API Extractor's reports in api/): it replaced the list of exported names kept here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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
  expect(importers).toEqual(['src/session/keycloak/keycloak.ts']);
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
