import { expect, test } from '@playwright/test';

test('an unknown path shows Page not found inside the shell', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByRole('main')).toContainText('/no/such/page');
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home');
});
