import { expect, test } from '@playwright/test';
import { openWithSession } from '../support/flows';

test('the profile remote shows the user, their roles and a live token countdown @idp', async ({ page }) => {
  await openWithSession(page, 'carol', '/profile');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  await expect(page.getByTestId('username')).toHaveText('carol');
  await expect(page.getByTestId('full-name')).toHaveText('Carol Chen');
  await expect(page.getByTestId('email')).toContainText('carol@example.com');
  await expect(page.getByTestId('realm-roles')).toContainText('user');
  await expect(page.getByTestId('client-roles')).toContainText('reports: viewer');
  const countdown = page.getByTestId('token-countdown');
  // the countdown and, once painted, the clock time it ends at; then it counts down
  await expect(countdown).toHaveText(/^expires in \d+ min \d{2} s \(.+\)$/);
  const first = await countdown.innerText();
  await expect(countdown).not.toHaveText(first, { timeout: 3000 });
});
