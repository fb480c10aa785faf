import { expect, test } from '@playwright/test';
import { openWithSession } from '../support/flows';
import { REMOTES } from '../support/system';

test('a remote that is down fails in its slot, the page keeps working, and Retry loads it once it is back', async ({ page }) => {
  // The page's timers on a clock the test can stop: a failed slot also tries again by itself after a backoff
  // (useAutoRetry), which on a busy machine could load the remote before Retry is clicked.
  await page.clock.install();
  await openWithSession(page, 'alice');
  // The reports remote's server refuses connections (as when it is stopped).
  const down = `${REMOTES.reports}/**`;
  await page.route(down, (route) => route.abort('connectionrefused'));

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();

  const slot = page.getByRole('alert');
  await expect(slot).toContainText('Reports is unavailable');
  await expect(slot).toContainText('The remote "reports" is not reachable');
  await expect(page.getByRole('banner')).toContainText('Alice Anders');

  // The rest of the page keeps working.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  // From here no timer fires until the Retry below has fetched the manifest: the slot's own next attempt waits.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('alert')).toContainText('not reachable');

  // Back up: Retry really fetches the manifest and code again.
  await page.unroute(down);
  const manifestFetched = page.waitForRequest(`${REMOTES.reports}/mf-manifest.json`);
  await page.getByRole('button', { name: 'Retry' }).click();
  await manifestFetched;
  await page.clock.resume();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports');
  await expect(page.getByRole('alert')).toHaveCount(0);
});
