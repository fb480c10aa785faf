import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/browser';
import { startTcpProxy } from './support/tcpProxy';
import { createTestRealm, type TestRealm } from './support/testRealm';
import { SHELL, startTopology, type Topology } from './support/topology';

// The identity provider goes down while the visitor is signed in. While the access token is valid
// they keep working: remote pages render and navigation works. Once it has expired and cannot be
// renewed, their next navigation asks them to sign in again; when the provider is back, signing in
// returns them to that route.

const PROVIDER_PORT = 8098; // the config's provider address: a forwarder to :8080 that the test cuts
const TOKEN_LIFESPAN_S = 15;

let realm: TestRealm;
let topology: Topology;
let proxy: { stop(): Promise<void> } | undefined;

test.beforeAll(async () => {
  realm = await createTestRealm('idp-down', { accessTokenLifespan: TOKEN_LIFESPAN_S });
  topology = await startTopology({ config: realm.config(`http://localhost:${PROVIDER_PORT}`) });
});
test.afterAll(async () => {
  await proxy?.stop();
  await topology?.stop();
  await realm?.delete();
});

async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

test('the visitor keeps working while the token is valid, then signs in again once the provider is back @idp', async ({ page }) => {
  proxy = await startTcpProxy(PROVIDER_PORT, 8080);
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  const expiresAt = (await page.evaluate(() => Date.now())) + TOKEN_LIFESPAN_S * 1000;

  // The provider goes away.
  await proxy.stop();
  proxy = undefined;

  // Remote pages render, navigation works, the visitor stays signed in.
  for (const title of ['Profile', 'Admin', 'Reports']) await open(page, title);
  await expect(page.locator('[data-reason]')).toHaveCount(0);
  await expect(page.getByTestId('user-name')).toBeVisible();
  expect(Date.now()).toBeLessThan(expiresAt); // all of that happened on the still-valid token

  // The token runs out (the profile page counts down to it); the visitor's next navigation asks them
  // to sign in again, on the route they open. They stay who they were: nothing is cleared.
  await open(page, 'Profile');
  await expect(page.getByTestId('token-countdown')).toContainText('expired', { timeout: TOKEN_LIFESPAN_S * 1000 });
  const signInAgain = page.getByRole('alert').filter({ has: page.getByRole('heading', { level: 1, name: 'Sign in again' }) });
  // The countdown rounds to whole seconds, so it reads "expired" up to half a second early: wait until the
  // page's clock is past the expiry (counted from after sign-in, so never before the token's own).
  await page.waitForFunction((at) => Date.now() >= at, expiresAt);
  // One navigation, and the notice within auth-lib's `timeout` (10 s, README) plus a margin for this machine.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(signInAgain).toBeVisible({ timeout: 12_000 });
  await expect(page).toHaveURL(`${SHELL}/reports`);
  await expect(page.locator('[data-remote]')).toHaveCount(0);

  // The provider is back; signing in (its session is still there: no form) returns to the same route.
  proxy = await startTcpProxy(PROVIDER_PORT, 8080);
  await signInAgain.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${SHELL}/reports`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toBeVisible();
  await expect(signInAgain).toHaveCount(0);
});
