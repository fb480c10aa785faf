import { expect, test } from '@playwright/test';
import { signInAtProvider } from '../support/flows';
import { IDP } from '../support/system';

test('a signed-out visitor who opens a protected route signs in and lands on that route @idp', async ({ page }) => {
  await page.goto('/reports?period=week');

  await page.waitForURL((url) => url.href.startsWith(IDP));
  await signInAtProvider(page, 'alice');

  await expect(page).toHaveURL('/reports?period=week');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports');
  await expect(page.getByTestId('user-name')).toHaveText('Alice Anders');
});
