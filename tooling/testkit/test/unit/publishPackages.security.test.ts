import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Security round three (info): `npm run publish:packages` publishes a commit, over https (http on loopback
// only). scripts/packages.mjs runs in a git checkout of its own, with no package to publish, so nothing reaches a
// registry: the refusals come before any npm command.
const SCRIPT = join(__dirname, '../../../../scripts/packages.mjs');
let checkout: string;

function git(...args: string[]) {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], { cwd: checkout, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
}

function publish(...args: string[]) {
  const run = spawnSync(process.execPath, [join(checkout, 'scripts/packages.mjs'), 'publish', ...args], {
    cwd: checkout,
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr };
}

beforeEach(() => {
  checkout = mkdtempSync(join(tmpdir(), 'publish-packages-'));
  mkdirSync(join(checkout, 'scripts'));
  copyFileSync(SCRIPT, join(checkout, 'scripts/packages.mjs'));
  // the script's own dependencies (proper-lockfile), as a checkout has them after its install
  symlinkSync(join(SCRIPT, '../../node_modules'), join(checkout, 'node_modules'));
  writeFileSync(join(checkout, '.gitignore'), 'node_modules\n');
  writeFileSync(join(checkout, 'package.json'), JSON.stringify({ name: 'root', private: true, workspaces: [] }));
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'a commit');
});
afterEach(() => rmSync(checkout, { recursive: true, force: true }));

test('a plain-http registry that is not on loopback is refused', () => {
  const result = publish('--registry', 'http://registry.example.com/');
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(
    'publish:packages refuses http://registry.example.com/: plain http sends the packages and your token in clear',
  );
});

test('a working tree with uncommitted changes is refused, unless --allow-dirty', () => {
  writeFileSync(join(checkout, 'uncommitted.txt'), 'work in progress');
  const refused = publish('--registry', 'https://registry.example.com/');
  expect(refused.status).toBe(2);
  expect(refused.stderr).toContain('refuses a working tree with uncommitted changes');
  expect(publish('--registry', 'http://127.0.0.1:4873/', '--allow-dirty')).toEqual({ status: 0, stderr: '' });
});

test('a clean commit to https (or http on loopback) goes on to publishing', () => {
  expect(publish('--registry', 'https://registry.example.com/')).toEqual({ status: 0, stderr: '' });
  expect(publish('--registry=http://localhost:4873/')).toEqual({ status: 0, stderr: '' });
});
