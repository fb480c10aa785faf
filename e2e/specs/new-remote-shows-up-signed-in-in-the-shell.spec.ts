import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { navigationLinks, openWithSession } from '../support/flows';
import { SHELL } from '../support/system';
import { makeTempCheckout, REPO, run, startInBackground, waitFor } from '../support/tempCheckout';

// `npm run new-remote` in a throw-away checkout: the new remote type-checks, passes its own tests, fits
// the shell's versions, builds, and — served by its own dev server and registered by the scaffold —
// appears in the running shell's navigation and renders for the signed-in user.
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
  const registry = JSON.parse(fs.readFileSync(path.join(root, 'shell/public/config.json'), 'utf8')) as {
    remotes: { name: string; manifest: string; route: string }[];
  };
  const entry = registry.remotes.find((r) => r.name === 'ledger');
  expect(entry).toMatchObject({ route: '/ledger' });
  const origin = new URL(entry!.manifest).origin;

  const remoteDir = path.join(root, 'remotes', 'ledger');
  run('npm', ['run', 'typecheck'], remoteDir);
  expect(run('npm', ['test'], remoteDir)).toMatch(/Tests:\s+2 passed/);
  expect(run('npm', ['run', 'check'], remoteDir)).toContain('✓ The remote fits the shell.');
  run('npm', ['run', 'build'], remoteDir);
  expect(fs.existsSync(path.join(remoteDir, 'dist', 'mf-manifest.json'))).toBe(true);

  devServer = startInBackground('npm', ['start'], remoteDir);
  await waitFor(`${origin}/mf-manifest.json`);

  // The running shell reads the registry the scaffold wrote (the repository's own is left alone).
  await page.route(`${SHELL}/config.json`, (route) =>
    route.fulfill({ path: path.join(root, 'shell/public/config.json'), contentType: 'application/json' }),
  );
  await openWithSession(page, 'alice');
  expect(await navigationLinks(page)).toContain('Ledger');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Ledger' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ledger');
  await expect(page.getByTestId('ledger-user')).toHaveText('Alice Anders');
});
