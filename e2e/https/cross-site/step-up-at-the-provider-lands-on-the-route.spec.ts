import { expect, heading, test, withBothCookieSettings } from '../support/fixtures';
import { openSignedIn, topLevelDocumentLoads } from '../support/flows';

// The admin remote needs level "gold"; a password sign-in is "silver". Step-up is a full-page round trip to the
// provider (the realm file's browser flow asks the signed-in user for the password again), which works whatever the
// browser does with third-party cookies. The page names the user in Keycloak's read-only #kc-attempted-username and
// asks for nothing else (the titles differ: the dev provider's says "Confirm it is you", Keycloak's "Sign In").
withBothCookieSettings(() => {
  test('a silver sign-in opening /admin steps up at the provider and lands on /admin at gold', async ({ page, topology, realm }) => {
    await openSignedIn(page, topology, '/profile', 'Profile');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await expect(heading(page)).toHaveText('Confirm it is you');
    const documentLoads = topLevelDocumentLoads(page);

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${topology.identityProvider}/realms/${realm.name}/protocol/openid-connect/auth`));
    await expect(page.locator('#kc-attempted-username')).toHaveValue('alice');
    await expect(page.locator('#username')).toHaveCount(0);
    await page.locator('#password').fill('alice');
    await page.locator('#kc-login').click();

    await expect(page).toHaveURL(`${topology.shell}/admin`);
    await expect(heading(page)).toHaveText('Admin');
    await expect(page.getByTestId('acr')).toHaveText('gold');
    expect(documentLoads[0]).toMatch(new RegExp(`^${topology.identityProvider}/realms/${realm.name}/protocol/openid-connect/auth\\?`));
  });
});
