import { expect, test } from '@playwright/test';
import { fillLoginForm, signIn } from './support/browser';
import { createTestRealm, type TestRealm } from './support/testRealm';
import { onKeycloak } from '../support/provider';
import { visitorUsing } from '../support/visitor';
import { SHELL, startTopology, type Topology } from './support/topology';

// An administrator ends the visitor's session through the admin API: a check notices, and the shell signs the
// visitor out and says why. Signing in again brings them back to the page they were on.
//
// The check: the dev provider's login-status frame asks its server every 5 s. Keycloak 26's frame compares only
// the KEYCLOAK_SESSION cookie, which an administrator's sign-out leaves in place; there the shell's server check
// notices it (every sessionWatchSeconds, 15 s by default, decisions/0044, while the visitor uses the page,
// decisions/0090). One check, its request and rendering.
const NOTICED_WITHIN_MS = onKeycloak ? 15_000 + 5_000 : 5_000 + 2_500;

let realm: TestRealm;
let topology: Topology;
test.beforeAll(async () => {
  realm = await createTestRealm('revoked');
  topology = await startTopology({ config: realm.config() });
});
test.afterAll(async () => {
  await topology?.stop();
  await realm?.delete();
});

test('a session revoked by an administrator is signed out within one check, with a notice @idp', async ({ page }) => {
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();

  const stopUsing = visitorUsing(page);
  await realm.logout('alice');
  const revokedAt = Date.now();
  await expect(page.getByTestId('session-notice'))
    .toHaveText(/Your session ended/, { timeout: NOTICED_WITHIN_MS })
    .finally(stopUsing);
  expect(Date.now() - revokedAt).toBeLessThan(NOTICED_WITHIN_MS);
  await expect(page.getByTestId('user-name')).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
  // The remote's content is gone with the session; the visitor is asked to sign in, not sent away.
  await expect(page).toHaveURL(`${SHELL}/reports`);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();

  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await fillLoginForm(page, 'alice');
  await expect(page).toHaveURL(`${SHELL}/reports`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByTestId('session-notice')).toHaveCount(0);
});
