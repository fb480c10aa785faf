import { expect, test, withBothCookieSettings } from '../support/fixtures';
import { openSignedIn } from '../support/flows';

withBothCookieSettings(() => {
  test('signing out ends the session at the provider: protected routes ask for the password again', async ({ page, topology }) => {
    await openSignedIn(page, topology, '/profile', 'Profile');

    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();

    await expect(page).toHaveURL(`${topology.shell}/`);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.goto(`${topology.shell}/profile`);
    await page.waitForURL((url) => url.origin === topology.identityProvider);
    await expect(page.locator('#username')).toBeVisible();
  });
});
