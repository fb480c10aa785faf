import { expect, test } from '@playwright/test';
import { navigationLinks, openWithSession } from '../support/flows';
import { IDP } from '../support/system';

test('signing out ends the session: the header offers sign-in and protected routes ask for it again @idp', async ({ page }) => {
  await openWithSession(page, 'alice', '/profile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');

  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await navigationLinks(page)).toEqual(['Home']);
  await page.goto('/profile');
  await page.waitForURL((url) => url.href.startsWith(IDP));
  await expect(page.locator('#username')).toBeVisible();
});
