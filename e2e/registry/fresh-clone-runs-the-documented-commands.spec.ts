import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, waitForUrl, type ManagedProcess } from '@gatehouse/testkit/processes';
import { run, runOk } from '../production/support/outsideRemote';
import { REPO_ROOT } from '../production/support/previewProcess';

// A newcomer's first commands, to the letter of the README, in a fresh `git clone` (into a private `mktemp -d`
// folder, as root does it): `npm test` with nothing installed installs the lockfile's packages itself, with no npm
// warning on the way, and runs (one small suite, `npm test -- config`: the whole run is CI's); `npm run build`
// builds every app; then `npm run preview` serves the builds behind nginx on the
// README's ports (decisions/0070). It needs the network for what the npm cache lacks, so it runs with the registry
// suite, outside any network namespace.
//
// Then, with the builds' dist/ folders removed again (the clone as `npm ci` alone leaves it), security round three
// asks that no documented command resolve an unscoped name from a public registry. `npx <bin>` runs a local bin
// when one exists and otherwise fetches the package named <bin>, which anyone could have published: every `npx` in
// the repository's READMEs, docs and generated files must name a bin the install alone provides, or a scoped
// package (`npx --package=@gatehouse/…`); the doctor and the contract check run through root scripts that need no
// build.

/** Every `npx …` command of the documentation and of what the scaffold generates, with the file it is in. */
function documentedNpx(repo: string): Array<{ file: string; command: string }> {
  const files = execFileSync('git', ['ls-files', '*.md', '*.tmpl', 'tooling/scaffold/src/*.ts'], { cwd: repo, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && !file.startsWith('decisions/') && !file.endsWith('CHANGELOG.md') && !file.endsWith('.test.ts'));
  return files.flatMap((file) =>
    [...readFileSync(join(repo, file), 'utf8').matchAll(/\bnpx ((?:--?[\w-]+(?:=\S+)? )*)([@\w.][@\w./-]*)/g)].map((m) => ({
      file,
      command: `npx ${m[1] ?? ''}${m[2] ?? ''}`,
    })),
  );
}

/** The workspaces' build output (dist/ and dist-sourcemaps/ of each): what `npm run build` adds to an install. */
function removeBuilds(clone: string): void {
  const workspaces = execFileSync('npm', ['query', '.workspace'], { cwd: clone, encoding: 'utf8' });
  for (const { location } of JSON.parse(workspaces) as Array<{ location: string }>)
    for (const folder of ['dist', 'dist-sourcemaps']) rmSync(join(clone, location, folder), { recursive: true, force: true });
}

let work: string;
let preview: ManagedProcess | undefined;

test.beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'gatehouse-fresh-clone-'));
});

test.afterAll(async () => {
  await preview?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('a fresh clone: npm test installs first, quietly, and runs; npm run build builds; npm run preview serves the builds; documented npx and root scripts need no build', async () => {
  const clone = join(work, 'gatehouse');
  await runOk('git', ['clone', '-q', REPO_ROOT, clone], work);
  expect(existsSync(join(clone, 'node_modules'))).toBe(false);

  // a newcomer's environment: not CI, and no release key (the suite's own setup may have named this tree's)
  const env = { ...process.env, CI: '', GATEHOUSE_RELEASE_KEY: '', GATEHOUSE_RELEASE_KEY_FILE: '' };
  const tested = await test.step('npm test -- config', () => run('npm', ['test', '--', 'config'], clone, env));
  const output = `${tested.stdout}\n${tested.stderr}`;
  expect({ code: tested.code, output: tested.code === 0 ? '' : output.slice(-4000) }).toEqual({ code: 0, output: '' });
  expect(tested.stderr).toContain("[preflight] node_modules is missing: installing the lockfile's packages (npm ci)");
  expect(tested.stderr).toMatch(/\[npm test\] passed:\n {2}preflight: passed in \d+ s\n {2}config: (\d+ )?passed/);
  // a quiet install: no EBADENGINE, no unexplained install-scripts list, no other npm warning
  expect(output.split('\n').filter((line) => line.startsWith('npm warn'))).toEqual([]);

  const build = await test.step('npm run build', () => run('npm', ['run', 'build'], clone, env));
  expect({ code: build.code, output: build.code === 0 ? '' : `${build.stdout}\n${build.stderr}`.slice(-4000) }).toEqual({
    code: 0,
    output: '',
  });
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
    // the preview verifies every remote (decisions/0117): its config pins the clone's own local release key, made on
    // first use by `npm run build`, and each remote's served release statement is signed with that key
    const { localPublicKey } = createRequire(__filename)(
      join(clone, 'scripts/releaseKey.cjs'),
    ) as typeof import('../../scripts/releaseKey.cjs');
    const kid = localPublicKey().kid;
    const served = (await (await fetch('http://localhost:4000/config.json')).json()) as {
      remotes: Array<{ name: string; signingKeys?: Array<{ kid?: string }> }>;
    };
    expect(served.remotes.map((remote) => ({ remote: remote.name, pinned: remote.signingKeys?.map((key) => key.kid) }))).toEqual(
      served.remotes.map((remote) => ({ remote: remote.name, pinned: [kid] })),
    );
    for (const port of [4001, 4002, 4003]) {
      const release = (await (await fetch(`http://localhost:${port}/mf-release.json`)).json()) as { protected?: string };
      const signer = release.protected
        ? (JSON.parse(Buffer.from(release.protected, 'base64url').toString('utf8')) as { kid?: string }).kid
        : undefined;
      expect({ port, signer }).toEqual({ port, signer: kid });
    }
    expect(stderr).not.toContain('not signed by it');
    // and session events on :3020, named by the served config (decisions/0118)
    expect((served as { sessionEvents?: unknown }).sessionEvents).toEqual({ url: 'http://localhost:3020' });
    await waitForUrl('http://localhost:3020/health', {
      name: 'session events of npm run preview',
      timeoutMs: 60_000,
      child: preview.child,
    });
  });
  await preview?.stop();
  preview = undefined;

  removeBuilds(clone);
  expect(existsSync(join(clone, 'tooling/contract-check/dist'))).toBe(false);
  await test.step('every documented npx names a scoped package or a bin the install alone provides', () => {
    const found = documentedNpx(clone);
    expect(found.length).toBeGreaterThan(0);
    const unsafe = found.filter(({ command }) => {
      if (/--package=@[\w.-]+\//.test(command)) return false;
      // a symlink whose target is missing (a bin in an unbuilt dist/) counts as absent: npx would go to the registry
      return !existsSync(join(clone, 'node_modules/.bin', command.split(' ').pop() ?? ''));
    });
    expect(unsafe).toEqual([]);
  });
  for (const [script, usage] of [
    ['doctor', 'Usage: gatehouse-doctor <shell url>'],
    ['contract-check', 'Usage: gatehouse-contract-check'],
  ] as const)
    await test.step(`npm run ${script} works after the install alone (no build)`, async () => {
      const help = await run('npm', ['run', '--silent', script, '--', '--help'], clone, env);
      expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: '' });
      expect(help.stdout).toContain(usage);
    });
});
