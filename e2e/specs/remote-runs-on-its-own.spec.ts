import { expect, test } from '@playwright/test';
import { signInAtProvider } from '../support/flows';
import { REMOTES } from '../support/system';

test('the profile remote opened at its own port signs in by itself and works @idp', async ({ page }) => {
  await page.goto(REMOTES.profile);

  await signInAtProvider(page, 'bob', REMOTES.profile);

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  await expect(page.getByTestId('user-name')).toHaveText('Bob Brown');
  await expect(page.getByTestId('full-name')).toHaveText('Bob Brown');
  await expect(page.getByTestId('email')).toContainText('bob@example.com');
});
