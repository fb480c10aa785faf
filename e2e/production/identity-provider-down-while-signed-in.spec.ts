import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/browser';
import { startTcpProxy } from './support/tcpProxy';
import { createTestRealm, type TestRealm } from './support/testRealm';
import { SHELL, startTopology, type Topology } from './support/topology';

// The identity provider goes down while the visitor is signed in. While the access token is valid
// they keep working: remote pages render and navigation works. Once it has expired and cannot be
// renewed, their next navigation says that the sign-in service cannot be reached; when the provider is
// back, the page opens by itself on that route, on the same session (no sign-in).

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

test('the visitor keeps working while the token is valid, is told while the provider is down, and carries on when it is back @idp', async ({
  page,
}) => {
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

  // The token runs out (the profile page counts down to it); the visitor's next navigation tells them the
  // sign-in service cannot be reached, on the route they open. They stay who they were: nothing is cleared.
  await open(page, 'Profile');
  await expect(page.getByTestId('token-countdown')).toContainText('expired', { timeout: TOKEN_LIFESPAN_S * 1000 });
  const waiting = page.getByRole('alert').filter({ has: page.getByRole('heading', { level: 1, name: 'Waiting for the sign-in service' }) });
  // The countdown rounds to whole seconds, so it reads "expired" up to half a second early: wait until the
  // page's clock is past the expiry (counted from after sign-in, so never before the token's own).
  await page.waitForFunction((at) => Date.now() >= at, expiresAt);
  // One navigation, and the notice within auth-lib's `timeout` (10 s, README) plus a margin for this machine.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(waiting).toBeVisible({ timeout: 12_000 });
  await expect(waiting).toContainText('Reports opens by itself as soon as the service is back');
  await expect(page).toHaveURL(`${SHELL}/reports`);
  await expect(page.locator('[data-remote]')).toHaveCount(0);
  await expect(page.getByTestId('user-name')).toBeVisible();

  // The provider is back, its session still there. The page renews the token by itself (it tries again every
  // few seconds, at most 15 s apart) and opens the route — unless the provider was already gone at the
  // login-status frame's first check (here it is cut right after sign-in): keycloak-js then never renews, and the
  // visitor's Sign in again returns to the route without the form. Either way they land on the route, signed in.
  proxy = await startTcpProxy(PROVIDER_PORT, 8080);
  const reports = page.getByRole('heading', { level: 1, name: 'Reports' });
  await expect(async () => {
    if (!(await reports.isVisible())) await waiting.getByRole('button', { name: 'Sign in again' }).click({ timeout: 1000 });
    await expect(reports).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 40_000 });
  await expect(page).toHaveURL(`${SHELL}/reports`);
  await expect(page.getByTestId('user-name')).toBeVisible();
  await expect(waiting).toHaveCount(0);
});
