// testkit's modules read one way: no module imports, even only for a type, a module that imports it back; the
// Keycloak runner's parts (src/keycloak/) are reached through src/keycloak.ts, which only re-exports them.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importCircles, importGraph, sourcesUnder } from '../../src/importGraph';

const SRC = resolve(__dirname, '../../src');

test('no import circles in testkit/src', () => {
  expect(sourcesUnder(SRC).length).toBeGreaterThan(20);
  expect(importCircles(SRC).map((circle) => circle.join(' → '))).toEqual([]);
});

test("keycloak.ts only re-exports the runner's parts, and none of them imports it", () => {
  const index = join(SRC, 'keycloak.ts');
  const statements = readFileSync(index, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('//'));
  expect(statements.filter((line) => !/^export (type )?\{[^}]*\} from '\.\/keycloak\/\w+';$/.test(line))).toEqual([]);
  const importers = [...importGraph(SRC)].filter(([file, targets]) => file.includes('/keycloak/') && targets.includes(index));
  expect(importers.map(([file]) => file)).toEqual([]);
});
