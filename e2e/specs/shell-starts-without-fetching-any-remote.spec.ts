import { expect, test } from '@playwright/test';
import { networkQuiet, openSignedIn, requestsTo } from '../support/flows';
import { REMOTES } from '../support/system';

test('the shell starts, signs in and shows Home without fetching anything from a remote', async ({ page }) => {
  const remoteRequests = Object.values(REMOTES).map((origin) => requestsTo(page, origin));
  const quiet = networkQuiet(page);
  await openSignedIn(page, 'alice');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
  await quiet();
  expect(remoteRequests.flat().map((request) => request.url())).toEqual([]);
});
