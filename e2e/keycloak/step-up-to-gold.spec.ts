import { expect, test } from '@playwright/test';
import { openSignedIn } from '../support/flows';
import { IDP, USERS } from '../support/system';

// The realm file's browser flow "browser step-up": level 1 (silver) = username and password, level 2 (gold) =
// Keycloak's Password Form again (no OTP device exists in tests; production puts OTP or WebAuthn there).
test('alice steps up to gold at Keycloak: the password form asks again and the tokens carry acr "gold"', async ({ page }) => {
  await openSignedIn(page, 'alice', '/admin');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm it is you');
  await expect(page.getByRole('main')).toContainText('level “silver”');

  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${IDP}/realms/gatehouse/protocol/openid-connect/auth`));
  await page.locator('#password').fill(USERS.alice.username);
  const token = page.waitForResponse((r) => r.url() === `${IDP}/realms/gatehouse/protocol/openid-connect/token`);
  await page.locator('#kc-login').click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin');
  await expect(page.getByTestId('acr')).toHaveText('gold');
  const body = (await (await token).json()) as { access_token: string; id_token: string };
  for (const jwt of [body.access_token, body.id_token]) {
    expect(JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()).acr).toBe('gold');
  }
});
