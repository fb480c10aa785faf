import { expect, test as base, type Page } from '@playwright/test';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { chosenProvider, keycloakUnlessRunning } from '@gatehouse/testkit/keycloak';
import { startIdp, type RunningIdp } from './devIdp';
import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { startTestApp, type TestApp } from './testApp';

export interface AuthFixtures {
  /** access token lifespan of this test's realm, in seconds */
  tokenLifespan: number;
  /** Keycloak's "Revoke Refresh Token" for this test's realm (each refresh token works once) */
  revokeRefreshToken: boolean;
  /**
   * the page server's host: `localhost`, the provider's (one site), or `127.0.0.1`, another site, where keycloak-js
   * runs the provider's third-party-cookie check (decisions/0097)
   */
  appHost: 'localhost' | '127.0.0.1';
  /** the page server, already pointed at this test's realm */
  app: TestApp;
  /** name of the realm created for this test */
  realm: string;
  /** `page`, signed in as alice in this test's realm (signIn) before the test begins */
  signedInPage: Page;
}

/**
 * One identity provider per worker (a real Keycloak on :8080 with GATEHOUSE_IDP=keycloak, as
 * `npm run test:keycloak` runs this suite); each test gets its own realm (created through the admin API,
 * deleted afterwards) and its own page server, so no test sees another's sessions or settings.
 */
export const test = base.extend<AuthFixtures, { idp: RunningIdp }>({
  idp: [
    async ({}, use) => {
      const idp = chosenProvider() === 'keycloak' ? await keycloak() : await startIdp();
      await use(idp);
      await idp.close();
    },
    { scope: 'worker' },
  ],
  tokenLifespan: [300, { option: true }],
  revokeRefreshToken: [false, { option: true }],
  appHost: ['localhost', { option: true }],
  app: async ({ appHost }, use) => {
    const app = await startTestApp(appHost);
    await use(app);
    await app.close();
  },
  realm: async ({ idp, app, tokenLifespan, revokeRefreshToken }, use, testInfo) => {
    // the whole test id (its first part names only the file): unique per test, also if tests of one file run at once
    const name = `test-${testInfo.testId}-${testInfo.retry}`;
    const admin = await signInAsAdmin(idp.url);
    // one an earlier run left behind (stopped mid-test, so its teardown never ran) would refuse the name
    if (await admin.realms.findOne({ realm: name })) await admin.realms.del({ realm: name });
    await admin.realms.create(testRealm(name, { origin: app.origin, accessTokenLifespan: tokenLifespan, revokeRefreshToken }));
    app.setConfig({ url: idp.url, realm: name, clientId: 'gatehouse-shell' });
    await use(name);
    await (await signInAsAdmin(idp.url)).realms.del({ realm: name });
  },
  signedInPage: async ({ page, app, realm }, use) => {
    expect(realm).toBeTruthy(); // made first: the app's config names it
    await signIn(page, app);
    await use(page);
  },
});

export { expect };

async function keycloak(): Promise<RunningIdp> {
  const { url, stop } = await keycloakUnlessRunning();
  return { url, close: stop };
}

export async function status(page: Page): Promise<string> {
  return page.evaluate(() => window.gatehouse?.snapshot().status ?? 'no page session');
}

/** Opens the test page signed out, then signs in as alice through the provider's real login form. */
export async function signIn(page: Page, app: TestApp): Promise<void> {
  await page.goto(`${app.origin}/start`);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
  await page.evaluate(() => void window.gatehouse!.session.login({ redirectTo: '/signed-in' }));
  await fillLoginForm(page, 'alice');
  await page.waitForURL(`${app.origin}/signed-in`);
  await expect(page.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });
}
