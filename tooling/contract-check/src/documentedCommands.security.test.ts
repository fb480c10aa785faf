// Security round three (issue 30): no documented command resolves an unscoped name from a public registry. `npx <bin>`
// runs a local bin when one exists and otherwise fetches the package named <bin> from the registry, which anyone
// could have published: every `npx` in the repository's READMEs, docs and generated files must name a bin that a
// fresh checkout has after `npm ci` alone (no build), or a scoped package (`npx --package=@gatehouse/…`). The
// doctor and the contract check run from the checkout through root scripts that need no build.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

jest.setTimeout(600_000);

const REPO = path.resolve(__dirname, '..', '..', '..');
let clone: string;

/** The working tree's tracked files (what a clone of it holds), as a fresh checkout after `npm ci` alone. */
beforeAll(() => {
  clone = mkdtempSync(path.join(tmpdir(), 'gatehouse-fresh-'));
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(path.join(REPO, file))) continue; // deleted in the working tree
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    copyFileSync(path.join(REPO, file), path.join(clone, file));
  }
  const ci = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: clone, encoding: 'utf8' });
  if (ci.status !== 0) throw new Error(`npm ci failed in ${clone}:\n${ci.stdout}\n${ci.stderr}`);
});

afterAll(() => {
  if (clone) rmSync(clone, { recursive: true, force: true });
});

/** Every `npx …` command of the documentation and of what the scaffold generates, with the file it is in. */
function documentedNpx(): Array<{ file: string; command: string }> {
  const files = spawnSync('git', ['ls-files', '*.md', '*.tmpl', 'tooling/scaffold/src/*.ts'], { cwd: REPO, encoding: 'utf8' })
    .stdout.split('\n')
    .filter((file) => file && !file.startsWith('decisions/') && !file.endsWith('CHANGELOG.md') && !file.endsWith('.test.ts'));
  return files.flatMap((file) =>
    [...readFileSync(path.join(REPO, file), 'utf8').matchAll(/\bnpx ((?:--?[\w-]+(?:=\S+)? )*)([@\w.][@\w./-]*)/g)].map((m) => ({
      file,
      command: `npx ${m[1] ?? ''}${m[2] ?? ''}`,
    })),
  );
}

test('every documented npx names a scoped package or a bin a fresh checkout has after npm ci alone', () => {
  const found = documentedNpx();
  expect(found.length).toBeGreaterThan(0);
  const unsafe = found.filter(({ command }) => {
    if (/--package=@[\w.-]+\//.test(command)) return false;
    const bin = command.split(' ').pop() ?? '';
    // a symlink whose target is missing (a bin in an unbuilt dist/) counts as absent: npx would go to the registry
    return !existsSync(path.join(clone, 'node_modules/.bin', bin));
  });
  expect(unsafe).toEqual([]);
});

test.each([
  ['doctor', 'Usage: gatehouse-doctor <shell url>'],
  ['contract-check', 'Usage: gatehouse-contract-check'],
])('npm run %s works in a fresh checkout after npm ci alone (no build)', (script, usage) => {
  expect(existsSync(path.join(clone, 'tooling/contract-check/dist'))).toBe(false);
  const run = spawnSync('npm', ['run', '--silent', script, '--', '--help'], { cwd: clone, encoding: 'utf8' });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout).toContain(usage);
});
