import { expect, test } from '@playwright/test';
import { openWithSession, requestsTo, stepUpAtProvider } from '../support/flows';
import { REMOTES } from '../support/system';

// The dev registry says the admin remote needs "acr": "gold"; a password sign-in is "silver".
test('alice opening /admin with a password sign-in is asked to step up before anything of the admin remote is fetched, and lands on /admin after @idp', async ({
  page,
}) => {
  const adminRequests = requestsTo(page, REMOTES.admin);
  await openWithSession(page, 'alice', '/admin?tab=session#top');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm it is you');
  await expect(page.getByRole('main')).toContainText('level “gold”');
  await expect(page.getByRole('main')).toContainText('level “silver”');
  expect(adminRequests.map((request) => request.url())).toEqual([]);

  await page.getByRole('button', { name: 'Continue' }).click();
  await stepUpAtProvider(page, 'alice');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin');
  await expect(page).toHaveURL('/admin?tab=session#top');
  await expect(page.getByTestId('acr')).toHaveText('gold');
  expect(adminRequests.length).toBeGreaterThan(0);
});

test("a reload after the step-up keeps the level (the provider's session carries it), without asking again @idp", async ({ page }) => {
  await openWithSession(page, 'alice', '/admin');
  await page.getByRole('button', { name: 'Continue' }).click();
  await stepUpAtProvider(page, 'alice');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin');

  await page.reload();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin');
  await expect(page.getByTestId('acr')).toHaveText('gold');
});
