import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// The suites are defined once, in scripts/suites.mjs: `npm test` and `npm run test:keycloak` run what it lists.
// CONTRIBUTING.md's two tables tell a contributor which suites there are and in which lane each runs; these tests
// hold them to the list, so a suite added, renamed or moved to another lane cannot leave the docs behind.
const ROOT = resolve(__dirname, '../../../..');

interface Listed {
  npm: Array<{ name: string; lane: string }>;
  keycloak: string[];
}

/** The lists as scripts/suites.mjs gives them (an ES module: read by a plain Node process). */
function suitesFromTheList(): Listed {
  const script = `import('./scripts/suites.mjs').then((m) => process.stdout.write(JSON.stringify({
    npm: m.npmTestSuites().map((s) => ({ name: s.name, lane: s.lane ?? 'fixed' })),
    keycloak: m.KEYCLOAK_SUITES.map((s) => s.name),
  })))`;
  const listed = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`scripts/suites.mjs could not be read: ${listed.stderr}`);
  return JSON.parse(listed.stdout) as Listed;
}

/** The rows of the CONTRIBUTING.md table whose header starts with `header`: each row's cells. */
function tableRows(header: string): string[][] {
  const lines = readFileSync(resolve(ROOT, 'CONTRIBUTING.md'), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  if (start < 0) throw new Error(`CONTRIBUTING.md has no table headed "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The suite names a row's first cell gives, in backquotes. */
const namesIn = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** The lane a row's second cell names, by its first words. */
function laneOf(cell: string): string {
  const lane = (['fixed ports', 'units', 'browsers'] as const).find((words) => cell.startsWith(words));
  if (!lane) throw new Error(`CONTRIBUTING.md names an unknown lane: "${cell}"`);
  return lane === 'fixed ports' ? 'fixed' : lane;
}

const listed = suitesFromTheList();

test("CONTRIBUTING.md's table of `npm test` names every suite of scripts/suites.mjs once, each in its lane", () => {
  const documented = tableRows('| `npm test -- <name>`').flatMap(([names = '', lane = '']) =>
    namesIn(names).map((name) => ({ name, lane: laneOf(lane) })),
  );
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  expect(listed.npm.length).toBeGreaterThan(10);
  expect([...documented].sort(byName)).toEqual([...listed.npm].sort(byName));
});

test("CONTRIBUTING.md's table of `npm run test:keycloak` names its suites in the order they run", () => {
  const documented = tableRows('| `npm run test:keycloak -- <name>`').flatMap(([names = '']) => namesIn(names));
  expect(listed.keycloak.length).toBeGreaterThan(3);
  expect(documented).toEqual(listed.keycloak);
});
