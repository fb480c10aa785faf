import { expect, test as base, type Page } from '@playwright/test';
import { startIdp, type RunningIdp } from './devIdp';
import { startTestApp, testRealm, type TestApp } from './testApp';

export interface AuthFixtures {
  /** access token lifespan of this test's realm, in seconds */
  tokenLifespan: number;
  app: TestApp;
  idp: RunningIdp;
  realm: string;
}

/**
 * Each test gets its own page server, identity provider and realm, so no test sees another's
 * sessions or settings.
 */
export const test = base.extend<AuthFixtures>({
  tokenLifespan: [300, { option: true }],
  realm: async ({}, use, testInfo) => {
    await use(`t${testInfo.testId.slice(0, 8)}`);
  },
  app: async ({}, use) => {
    const app = await startTestApp();
    await use(app);
    await app.close();
  },
  idp: async ({ app, realm, tokenLifespan }, use) => {
    const idp = await startIdp([testRealm(realm, app.origin, tokenLifespan)]);
    app.setConfig({ url: idp.url, realm, clientId: 'gatehouse-shell' });
    await use(idp);
    await idp.close();
  },
});

export { expect };

export async function status(page: Page): Promise<string> {
  return page.evaluate(() => window.gatehouse?.snapshot().status ?? 'no page session');
}

/** Opens the test page signed out, then signs in as alice through the provider's real login form. */
export async function signIn(page: Page, app: TestApp): Promise<void> {
  await page.goto(`${app.origin}/start`);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
  await page.evaluate(() => void window.gatehouse!.session.login({ redirectTo: '/signed-in' }));
  await page.locator('#username').fill('alice');
  await page.locator('#password').fill('alice');
  await page.locator('#kc-login').click();
  await page.waitForURL(`${app.origin}/signed-in`);
  await expect(page.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });
}
