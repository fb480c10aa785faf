import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { navigationLinks, openWithSession } from '../support/flows';
import { DEMO_API, SHELL } from '../support/system';
import { makeTempCheckout, REPO, run, startInBackground, waitFor } from '../support/tempCheckout';

// `npm run new-remote` in a throw-away checkout: the new remote type-checks, passes its own tests, fits
// the shell's versions, builds, and — served by its own dev server and registered by the scaffold —
// appears in the running shell's navigation and renders for the signed-in user, whose token its card's
// call to the API of its registry entry carries (TanStack Query over the remote's authFetch).
let root: string;
let devServer: ReturnType<typeof startInBackground> | undefined;

test.beforeAll(() => {
  root = makeTempCheckout();
});
test.afterAll(async () => {
  await devServer?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('a scaffolded remote builds, passes its tests and shows up signed in inside the shell', async ({ page }) => {
  test.setTimeout(300_000);
  const output = run(
    'npm',
    ['run', '--silent', 'new-remote', '--', 'ledger', '--title', 'Ledger', '--realm-role', 'admin', '--skip-install', '--root', root],
    REPO,
  );
  expect(output).toContain('Created the remote "ledger"');
  type Api = { url: string; audience: string; scope: string };
  const registry = JSON.parse(fs.readFileSync(path.join(root, 'shell/public/config.json'), 'utf8')) as {
    remotes: { name: string; manifest: string; route: string; api?: Api }[];
  };
  const entry = registry.remotes.find((r) => r.name === 'ledger');
  expect(entry).toMatchObject({ route: '/ledger', api: { url: `${DEMO_API}/ledger`, audience: 'ledger-api', scope: 'ledger-api' } });
  const origin = new URL(entry!.manifest).origin;

  const remoteDir = path.join(root, 'remotes', 'ledger');
  run('npm', ['run', 'typecheck'], remoteDir);
  expect(run('npm', ['test'], remoteDir)).toMatch(/Tests:\s+3 passed/);
  expect(run('npm', ['run', 'check'], remoteDir)).toContain('✓ The remote fits the shell.');
  run('npm', ['run', 'build'], remoteDir);
  expect(fs.existsSync(path.join(remoteDir, 'dist', 'mf-manifest.json'))).toBe(true);

  devServer = startInBackground('npm', ['start'], remoteDir);
  await waitFor(`${origin}/mf-manifest.json`);

  // The running shell reads the registry the scaffold wrote (the repository's own is left alone). The running
  // provider has the repository's realm, without the ledger-api scope the scaffold added to the throw-away one (and
  // the demo API answers the demo remotes' paths only), so here the ledger remote's entry names the profile API.
  const profileApi = registry.remotes.find((r) => r.name === 'profile')!.api!;
  const served = { ...registry, remotes: registry.remotes.map((r) => (r.name === 'ledger' ? { ...r, api: profileApi } : r)) };
  await page.route(`${SHELL}/config.json`, (route) => route.fulfill({ json: served }));
  await openWithSession(page, 'alice');
  expect(await navigationLinks(page)).toContain('Ledger');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Ledger' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ledger');
  await expect(page.getByTestId('ledger-user')).toHaveText('Alice Anders');
  const card = page.locator('[data-remote="ledger"]');
  await expect(card.getByTestId('api-answer')).toHaveText('Signed in as alice', { timeout: 15_000 });
  await expect(card.getByTestId('api-audience')).toHaveText(profileApi.audience);
});
