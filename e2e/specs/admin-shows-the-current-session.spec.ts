import { expect, test } from '@playwright/test';
import { openSignedIn } from '../support/flows';

test('alice opening /admin sees her current session and can sign out from it', async ({ page }) => {
  await openSignedIn(page, 'alice', '/admin');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin');
  await expect(page.getByTestId('session-id')).not.toHaveText('—');
  await expect(page.getByTestId('signed-in-at')).not.toHaveText('—');
  await expect(page.getByTestId('token-expires-at')).not.toHaveText('—');

  await page.getByRole('button', { name: 'Sign out of this session' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
});
