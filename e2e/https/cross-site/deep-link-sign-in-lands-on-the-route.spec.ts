import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { expect, heading, test, withBothCookieSettings } from '../support/fixtures';

withBothCookieSettings(() => {
  test('a signed-out visitor opening /profile signs in at the provider and lands on /profile', async ({ page, topology }) => {
    await page.goto(`${topology.shell}/profile?tab=roles`);
    await page.waitForURL((url) => url.origin === topology.identityProvider);
    await fillLoginForm(page, 'alice');

    await expect(page).toHaveURL(`${topology.shell}/profile?tab=roles`);
    await expect(heading(page)).toHaveText('Profile');
    await expect(page.getByTestId('user-name')).toHaveText('Alice Anders');
  });
});
