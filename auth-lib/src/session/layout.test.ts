import { readdirSync } from 'node:fs';
import path from 'node:path';
import { importCircles, importGraph } from '@gatehouse/testkit/import-graph';

// The session core's layout (README.md beside this file): its rooms, what may sit at the top, and no import
// circle anywhere in auth-lib, type imports included.
const SRC = path.resolve(__dirname, '..');
const SESSION = __dirname;
const ROOMS = ['apis', 'dpop', 'keycloak', 'tabs', 'tokens', 'util', 'watch'];
/** the session's lifecycle and entry modules: anything else belongs in a room */
const TOP = [
  'KeycloakSession',
  'config',
  'createSession',
  'dependencies',
  'profile',
  'publicSession',
  'registry',
  'roles',
  'sessionErrors',
  'sessionLifecycle',
  'snapshot',
  'store',
];

test('no import circle in auth-lib/src, type imports included', () => {
  const graph = importGraph(SRC);
  expect(graph.size).toBeGreaterThan(80); // the walk sees the source
  expect(importCircles(SRC).map((circle) => circle.join(' → '))).toEqual([]);
});

test('the session core is in rooms: its top holds the lifecycle and entry modules only', () => {
  const entries = readdirSync(SESSION, { withFileTypes: true });
  expect(
    entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort(),
  ).toEqual(ROOMS);
  const loose = entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => entry.name.replace(/(\.security)?(\.test)?\.tsx?$/, ''))
    .filter((name) => name !== 'layout');
  expect([...new Set(loose)].sort()).toEqual([...TOP].sort());
});

test('util/ is a leaf: it imports no other part of the session', () => {
  const graph: Map<string, string[]> = importGraph(SRC);
  const util = path.join(SESSION, 'util');
  const reaching = [...graph]
    .filter(([file]) => file.startsWith(util) && !file.includes('.test.'))
    .flatMap(([file, targets]) =>
      targets
        .filter((target) => target.startsWith(SESSION) && !target.startsWith(util))
        .map((target) => `${path.relative(SRC, file)} → ${path.relative(SRC, target)}`),
    );
  expect(reaching).toEqual([]);
});
