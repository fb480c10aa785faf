import { expect, test, type Request } from '@playwright/test';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signIn } from './support/browser';
import { packPackages, run, runOk, scaffoldOutside } from './support/outsideRemote';
import { IDENTITY_PROVIDER, previewConfig, SHELL, startTopology, type Topology } from './support/topology';
import { deployRelease } from './support/remoteBuild';

// A team's remote in its own repository, made the way the guide says (docs/remote-teams.md): the
// published packages packed with `npm run pack:packages`, `npm run new-remote -- billing --outside <dir>`, then in
// that folder, with nothing else from this repository, `npm install --offline` (from the tarballs and
// the npm cache; no registry), `npm test`, `npm run build`. The build is served by nginx as the
// production preview serves every remote and added to the shell's registry.

const PORT = 4004;
const REMOTE_ORIGIN = `http://localhost:${PORT}`;
const RELEASE_NOTE = 'Release 2 of the billing remote';

let work: string;
let repo: string;
let live: string;
let topology: Topology | undefined;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  work = mkdtempSync(join(tmpdir(), 'gatehouse-outside-'));
  chmodSync(work, 0o755); // nginx's workers may run as another user
  const packs = join(work, 'packs');
  repo = join(work, 'billing');
  await packPackages(packs);
  await scaffoldOutside('billing', repo, ['--packages', packs, '--skip-install'], PORT, SHELL);
  await runOk('npm', ['install', '--offline', '--no-audit', '--no-fund'], repo);
  await runOk('npm', ['test', '--silent'], repo);
  await runOk('npm', ['run', '--silent', 'build'], repo);
  mkdirSync(join(work, 'releases'));
  cpSync(join(repo, 'dist'), join(work, 'releases/1'), { recursive: true });
  live = join(work, 'billing-live');
  symlinkSync(join(work, 'releases/1'), live);
  const config = previewConfig();
  config.remotes.push({ name: 'billing', manifest: `${REMOTE_ORIGIN}/mf-manifest.json`, route: '/billing', title: 'Billing' });
  topology = await startTopology({ config, remotes: { billing: live } });
});
test.afterAll(async () => {
  await topology?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the remote built outside the repository renders signed in under the shell', async ({ page }) => {
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await expect(page.getByTestId('billing-user')).toHaveText('Alice Anders');
  await expect(page.locator('[data-reason]')).toHaveCount(0);
});

test('the contract check against the running shell passes for it, and fails naming react for a build against React 18', async () => {
  const check = join(repo, 'node_modules/.bin/gatehouse-contract-check'); // the installed bin, as `npx gatehouse-contract-check` runs it
  const fits = await run(check, ['--shell', SHELL], repo);
  expect(fits.stderr).toBe('');
  expect(fits.code).toBe(0);
  expect(fits.stdout).toContain('✓ The remote fits the shell');
  expect(fits.stdout).toContain('lists "billing" at /billing');

  // The npm cache holds no React 18, so the React 18 build is this build's manifest saying what a build
  // against React 18.3.1 requires (the manifest is all the check reads of a build).
  const legacy = join(work, 'legacy');
  mkdirSync(join(legacy, 'dist'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(repo, 'dist/mf-manifest.json'), 'utf8')) as {
    shared: Array<{ name: string; version: string; requiredVersion: string }>;
  };
  for (const shared of manifest.shared) {
    if (/^react(-dom)?(\/|$)/.test(shared.name)) Object.assign(shared, { version: '18.3.1', requiredVersion: '^18.3.1' });
  }
  writeFileSync(join(legacy, 'dist/mf-manifest.json'), JSON.stringify(manifest));
  const misfit = await run(check, ['--shell', SHELL, '--remote', legacy], repo);
  expect(misfit.code).toBe(1);
  expect(misfit.stderr).toMatch(/✗ react +remote wants \^18\.3\.1 \(installed 18\.3\.1\), shell provides 19\.3\.1/);
  expect(misfit.stderr).toContain('What to do: Build against the shell\'s version: set "react": "19.3.1"');
});

test('a redeploy that removes the chunks the open page was loading heals by itself: new version, no reload, one retry, no token request', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Release 2, built by the team from its own repository.
  const app = join(repo, 'src/App.tsx');
  writeFileSync(
    app,
    readFileSync(app, 'utf8').replace('<h1>Billing</h1>', `<h1>Billing</h1><p data-testid="release-note">${RELEASE_NOTE}</p>`),
  );
  await runOk('npm', ['run', '--silent', 'build'], repo);
  cpSync(join(repo, 'dist'), join(work, 'releases/2'), { recursive: true });

  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');

  const documents: string[] = [];
  const tokenRequests: string[] = [];
  const manifestRefetches: string[] = [];
  page.on('request', (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(request.url());
    if (request.url().startsWith(IDENTITY_PROVIDER) && request.url().includes('/protocol/openid-connect/token'))
      tokenRequests.push(request.url());
    if (request.url().startsWith(`${REMOTE_ORIGIN}/mf-manifest.json?gatehouse-redeploy=`)) manifestRefetches.push(request.url());
  });

  // The page has read release 1's manifest and runs its remote entry when release 2 replaces it and
  // release 1's files are deleted: the exposed module's chunk is held until the deploy is done.
  let deployed!: () => void;
  const deployDone = new Promise<void>((resolve) => (deployed = resolve));
  let held = 0;
  // The manifest lets the runtime preload the exposed chunk before it requests the remote entry, so a held
  // chunk alone does not mean release 1's entry has arrived; a deploy before that would hand the page
  // release 2's entry, whose chunks all exist (nothing to heal, no manifest refetch).
  let entryLoaded = false;
  page.on('requestfinished', (request: Request) => {
    if (request.url() === `${REMOTE_ORIGIN}/remoteEntry.js`) entryLoaded = true;
  });
  await page.route(`${REMOTE_ORIGIN}/__federation_expose_*.js`, async (route) => {
    held += 1;
    await deployDone;
    await route.continue();
  });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
  await expect.poll(() => held > 0 && entryLoaded).toBe(true);
  deployRelease(live, join(work, 'releases/2'));
  rmSync(join(work, 'releases/1'), { recursive: true, force: true });
  deployed();

  await expect(page.getByTestId('release-note')).toHaveText(RELEASE_NOTE);
  await expect(page.getByTestId('billing-user')).toHaveText('Alice Anders');
  await expect(page.locator('[data-reason]')).toHaveCount(0);
  expect(documents).toEqual([]);
  expect(manifestRefetches).toHaveLength(1);
  expect(tokenRequests).toEqual([]);
});
