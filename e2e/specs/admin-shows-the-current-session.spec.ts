import { expect, test } from '@playwright/test';
import { openWithSession, stepUpAtProvider } from '../support/flows';

test('alice opening /admin steps up to gold, sees her current session and can sign out from it @idp', async ({ page }) => {
  await openWithSession(page, 'alice', '/admin');
  await page.getByRole('button', { name: 'Continue' }).click();
  await stepUpAtProvider(page, 'alice');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin');
  await expect(page.getByTestId('session-id')).not.toHaveText('—');
  await expect(page.getByTestId('signed-in-at')).not.toHaveText('—');
  await expect(page.getByTestId('token-expires-at')).not.toHaveText('—');
  await expect(page.getByTestId('acr')).toHaveText('gold');

  await page.getByRole('button', { name: 'Sign out of this session' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
});
