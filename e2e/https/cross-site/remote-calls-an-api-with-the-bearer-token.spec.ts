import { expect, test, withBothCookieSettings } from '../support/fixtures';
import { openSignedIn } from '../support/flows';

// The profile remote loads the account (GET {realm}/account, Keycloak's account API) from the provider's
// site with the session's bearer token: a cross-origin API call with CORS, the way a remote calls its own API.
withBothCookieSettings(() => {
  test("the profile remote's API call carries the bearer token and its answer is shown", async ({ page, topology, realm }) => {
    const account = `${topology.identityProvider}/realms/${realm.name}/account`;
    const call = page.waitForRequest((request) => request.url() === account && request.method() === 'GET');
    await openSignedIn(page, topology, '/profile', 'Profile');

    const request = await call;
    expect(await request.headerValue('authorization')).toMatch(/^bearer eyJ[\w-]+\.[\w-]+\.[\w-]+$/i);
    const response = await request.response();
    expect(response?.status()).toBe(200);
    expect(await response?.headerValue('access-control-allow-origin')).toBe(topology.shell);
    // Only the account API says the address is verified (the token does not): the answer reached the page.
    await expect(page.getByTestId('email')).toHaveText(/alice@example\.com\s+verified/);
  });
});
