import { expect, heading, test, withBothCookieSettings } from '../support/fixtures';
import { openSignedIn } from '../support/flows';

withBothCookieSettings(() => {
  test('a reload keeps the visitor signed in on the same route, without the login form', async ({ page, topology }) => {
    await openSignedIn(page, topology, '/profile', 'Profile');

    await page.reload();

    await expect(page).toHaveURL(`${topology.shell}/profile`);
    await expect(heading(page)).toHaveText('Profile');
    await expect(page.getByTestId('user-name')).toHaveText('Alice Anders');
    await expect(page.locator('#username')).toHaveCount(0);
  });
});
