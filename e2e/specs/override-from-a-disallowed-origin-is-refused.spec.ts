import { expect, test } from '@playwright/test';
import { requestsTo } from '../support/flows';

// The dev registry allows overrides from http://localhost:* only: another origin is refused, visibly,
// and nothing is fetched from it.
test('an override from an origin the registry does not allow is refused with a message', async ({ page }) => {
  const other = 'http://127.0.0.1:3001';
  const fetched = requestsTo(page, other);
  await page.goto(`/?remote.profile=${other}/mf-manifest.json`);
  await expect(page.getByRole('alert')).toHaveText(
    `The override of profile to ${other}/mf-manifest.json was refused: ${other} is not an allowed origin (allowed: http://localhost:*).`,
  );
  await page.getByRole('banner').getByRole('link', { name: 'Home' }).click();
  expect(fetched).toEqual([]);
  expect(await page.evaluate(() => sessionStorage.getItem('gatehouse.remoteOverrides'))).toBeNull();
});
