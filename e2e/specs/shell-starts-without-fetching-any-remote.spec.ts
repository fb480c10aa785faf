import { expect, test } from '@playwright/test';
import { openSignedIn, requestsTo } from '../support/flows';
import { REMOTES } from '../support/system';

test('the shell starts, signs in and shows Home without fetching anything from a remote', async ({ page }) => {
  const remoteRequests = Object.values(REMOTES).map((origin) => requestsTo(page, origin));
  await openSignedIn(page, 'alice');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
  await page.waitForLoadState('networkidle');
  expect(remoteRequests.flat().map((request) => request.url())).toEqual([]);
});
