import { expect, test } from '@playwright/test';
import { openWithSession } from '../support/flows';
import { REALM_URL } from '../support/system';

// keycloak-js checks the provider's login-status frame every 5 s; allow one period plus a margin.
const NOTICED_WITHIN = 5_000 + 3_000;

test('a logout at the identity provider (another tab) is noticed by the shell within 5 s @idp', async ({ page, context }) => {
  await openWithSession(page, 'alice', '/profile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');

  const provider = await context.newPage();
  await provider.goto(`${REALM_URL}/protocol/openid-connect/logout`);
  await provider.locator('#kc-logout').click();
  await provider.waitForLoadState();
  const loggedOutAt = Date.now();

  await expect(page.getByTestId('session-notice')).toContainText('Your session ended', {
    timeout: NOTICED_WITHIN,
  });
  expect(Date.now() - loggedOutAt).toBeLessThan(NOTICED_WITHIN);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
});
