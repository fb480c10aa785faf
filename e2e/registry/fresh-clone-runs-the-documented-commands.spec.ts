import { expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, waitForUrl, type ManagedProcess } from '@gatehouse/testkit/processes';
import { run, runOk } from '../production/support/outsideRemote';
import { REPO_ROOT } from '../production/support/previewProcess';

// A newcomer's first commands, to the letter of the README, in a fresh `git clone` (into a private `mktemp -d`
// folder, as root does it): `npm run build` with nothing installed installs the lockfile's packages itself, with
// no npm warning on the way, and builds every app; then `npm run preview` serves the builds behind nginx on the
// README's ports (decisions/0070). It needs the network for what the npm cache lacks, so it runs with the registry
// suite, outside any network namespace.

let work: string;
let preview: ManagedProcess | undefined;

test.beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'gatehouse-fresh-clone-'));
});

test.afterAll(async () => {
  await preview?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('a fresh clone: npm run build installs first, quietly, and builds; npm run preview then serves the builds', async () => {
  const clone = join(work, 'gatehouse');
  await runOk('git', ['clone', '-q', REPO_ROOT, clone], work);
  expect(existsSync(join(clone, 'node_modules'))).toBe(false);

  const env = { ...process.env, CI: '' };
  const build = await test.step('npm run build', () => run('npm', ['run', 'build'], clone, env));
  const output = `${build.stdout}\n${build.stderr}`;
  expect({ code: build.code, output: build.code === 0 ? '' : output.slice(-4000) }).toEqual({ code: 0, output: '' });
  expect(build.stderr).toContain("[preflight] node_modules is missing: installing the lockfile's packages (npm ci)");
  // a quiet install: no EBADENGINE, no unexplained install-scripts list, no other npm warning
  expect(output.split('\n').filter((line) => line.startsWith('npm warn'))).toEqual([]);
  for (const app of ['shell', 'remotes/profile', 'remotes/admin', 'remotes/reports'])
    expect({ app, built: existsSync(join(clone, app, 'dist/index.html')) }).toEqual({ app, built: true });

  await test.step('npm run preview', async () => {
    preview = startProcess('npm', ['run', 'preview'], { cwd: clone, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    preview.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await waitForUrl('http://localhost:4000/config.json', { name: 'npm run preview', timeoutMs: 120_000, child: preview.child });
    } catch (error) {
      throw new Error(`npm run preview did not serve the shell: ${String(error)}\n${stderr}`, { cause: error });
    }
    const shell = await fetch('http://localhost:4000/');
    expect(shell.status).toBe(200);
    expect(await shell.text()).toContain('<div id="root">');
    for (const port of [4001, 4002, 4003]) {
      const manifest = await fetch(`http://localhost:${port}/mf-manifest.json`);
      expect({ port, status: manifest.status }).toEqual({ port, status: 200 });
    }
  });
});
