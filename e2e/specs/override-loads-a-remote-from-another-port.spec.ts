import { expect, test } from '@playwright/test';
import { openWithSession, requestsTo } from '../support/flows';
import { forwardPort, type PortForward } from '../support/portForward';
import { REMOTES } from '../support/system';

// A team runs only its remote (here: the profile remote, reached through another port) and points the
// shell at it for this tab with ?remote.<name>=…; the dev registry allows http://localhost:*.
let elsewhere: PortForward;
test.beforeAll(async () => {
  elsewhere = await forwardPort(3095, REMOTES.profile);
});
test.afterAll(async () => elsewhere.close());

test('an override loads the remote from another port for this tab, shows a badge, and can be cleared', async ({ page }) => {
  const fromOverride = requestsTo(page, elsewhere.origin);
  const fromRegistry = requestsTo(page, REMOTES.profile);

  await openWithSession(page, 'alice', `/profile?remote.profile=${elsewhere.origin}/mf-manifest.json`);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  await expect(page.getByTestId('username')).toHaveText('alice');
  const badge = page.getByTestId('remote-overrides');
  await expect(badge).toContainText(`This tab loads profile from ${elsewhere.origin}/mf-manifest.json`);
  expect(fromOverride.map((r) => new URL(r.url()).pathname)).toEqual(expect.arrayContaining(['/mf-manifest.json', '/remoteEntry.js']));
  expect(fromRegistry).toEqual([]);
  // The parameter is gone from the address bar; the tab keeps the override in sessionStorage (a URL, no token).
  expect(new URL(page.url()).search).toBe('');
  expect(await page.evaluate(() => sessionStorage.getItem('gatehouse.remoteOverrides'))).toBe(
    JSON.stringify({ profile: `${elsewhere.origin}/mf-manifest.json` }),
  );

  await badge.getByRole('button', { name: 'Clear overrides' }).click();
  await expect(page.getByTestId('remote-overrides')).toHaveCount(0);
  await expect(page.getByTestId('username')).toHaveText('alice');
  expect(fromRegistry.some((r) => new URL(r.url()).pathname === '/mf-manifest.json')).toBe(true);
});
