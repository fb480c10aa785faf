import { expect, test, withBothCookieSettings } from '../support/fixtures';
import { openSignedIn } from '../support/flows';

// The profile remote loads the account (GET {realm}/account, Keycloak's account API) from the provider's site with the
// session's token: a cross-origin call with CORS. The token is bound to the browser's DPoP key, so it goes as
// `Authorization: DPoP` with a proof for that address and token (decisions/0112); the provider refuses it as a bearer token.
withBothCookieSettings(() => {
  test("the profile remote's account read carries the DPoP-bound token with a proof, and its answer is shown", async ({
    page,
    topology,
    realm,
  }) => {
    const account = `${topology.identityProvider}/realms/${realm.name}/account`;
    const call = page.waitForRequest((request) => request.url() === account && request.method() === 'GET');
    await openSignedIn(page, topology, '/profile', 'Profile');

    const request = await call;
    expect(await request.headerValue('authorization')).toMatch(/^DPoP eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const proof = (await request.headerValue('dpop')) ?? '';
    const claims = JSON.parse(Buffer.from(proof.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims).toMatchObject({ htm: 'GET', htu: account });
    const response = await request.response();
    expect(response?.status()).toBe(200);
    expect(await response?.headerValue('access-control-allow-origin')).toBe(topology.shell);
    // Only the account API says the address is verified (the token does not): the answer reached the page.
    await expect(page.getByTestId('email')).toHaveText(/alice@example\.com\s+verified/);
  });
});
