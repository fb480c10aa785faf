import { expect, test } from '@playwright/test';
import { dpopProof, newDpopKey } from '@gatehouse/dev-idp/testing/dpop-proof';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { IDP, REALM_URL, USERS } from '../support/system';
import { loginFailures } from './support/keycloak';

// bruteForceProtected: Keycloak counts a user's failed sign-ins (10 lock them for a growing wait) and forgets
// them at the next successful one. One failure here, so no demo user is ever locked (one left over by an
// interrupted run is counted from).
test('Keycloak counts a wrong password against the user and clears the count when they sign in', async ({ page }) => {
  const before = (await loginFailures('carol')).numFailures;
  await page.goto('/profile');
  await page.waitForURL((url) => url.href.startsWith(IDP));
  await fillLoginForm(page, USERS.carol.username, 'not-the-password');
  await expect(page.getByText('Invalid username or password.')).toBeVisible();
  expect(await loginFailures('carol')).toEqual({ numFailures: before + 1, disabled: false });

  await fillLoginForm(page, USERS.carol.username);
  await expect(page.getByTestId('user-name')).toHaveText(USERS.carol.name);
  expect(await loginFailures('carol')).toEqual({ numFailures: 0, disabled: false });
});

// Keycloak gives every realm an admin-cli client with direct access grants; the realm file declares it
// without them, so no client of the realm takes a password outside the login page (and its brute-force check).
for (const clientId of ['admin-cli', 'gatehouse-shell']) {
  test(`the password grant is refused for ${clientId}`, async () => {
    // with a good DPoP proof (gatehouse-shell requires one, decisions/0112): the grant alone is what is refused
    const token = `${REALM_URL}/protocol/openid-connect/token`;
    const response = await fetch(token, {
      method: 'POST',
      headers: { dpop: await dpopProof(newDpopKey(), 'POST', token) },
      body: new URLSearchParams({ grant_type: 'password', client_id: clientId, username: 'alice', password: 'alice' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'unauthorized_client',
      error_description: 'Client not allowed for direct access grants',
    });
  });
}
