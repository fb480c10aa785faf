import type KcAdminClient from '@keycloak/keycloak-admin-client';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { test as base, expect } from '@playwright/test';
import type { Page } from '@playwright/test';

import { startDevIdp, testRealm } from '../src/index.js';
import type { DevIdp } from '../src/index.js';
import { startAppServer } from './appServer.js';
import type { AppConfig } from './appServer.js';

interface WorkerFixtures {
  idp: DevIdp;
  admin: KcAdminClient;
  app: { url: string; use(config: AppConfig): void };
}

interface TestFixtures {
  /** A fresh realm for this test (unique name), made through the admin API, with client `spa` and user alice/alice. */
  realm: string;
}

/**
 * One dev IdP and one test-app server per worker; each test gets a realm of its own,
 * created through the admin API as keycloak-js's own test suite does, and deleted after.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  idp: [
    async ({}, use) => {
      const idp = await startDevIdp({ port: 0, quiet: true });
      await use(idp);
      await idp.close();
    },
    { scope: 'worker' },
  ],
  admin: [
    async ({ idp }, use) => {
      await use(await signInAsAdmin(idp.url));
    },
    { scope: 'worker' },
  ],
  app: [
    async ({}, use) => {
      let current: AppConfig = { url: '', realm: '', clientId: '' };
      const server = await startAppServer(() => current);
      await use({
        url: server.url,
        use: (config) => {
          current = config;
        },
      });
      await server.close();
    },
    { scope: 'worker' },
  ],
  realm: [
    async ({ idp, admin, app }, use, testInfo) => {
      const name = `kcjs-${testInfo.workerIndex}-${Date.now().toString(36)}`;
      await admin.realms.create(testRealm(name, { clientId: 'spa', origin: app.url }));
      app.use({ url: idp.url, realm: name, clientId: 'spa' });
      await use(name);
      await admin.realms.del({ realm: name });
    },
    { auto: true },
  ],
});

export { expect };

/** Opens the test app, signs in through the dev IdP's form, and waits until keycloak-js is authenticated. */
export async function signIn(page: Page, appUrl: string): Promise<void> {
  await page.goto(appUrl);
  await expect(page.locator('#state')).toHaveText('signed out');
  await page.evaluate(() => {
    void (window as unknown as { kc: { login(): Promise<void> } }).kc.login();
  });
  // Scripts written for Keycloak wait for the authorization URL: the form is served there, not after a redirect.
  await page.waitForURL(/\/protocol\/openid-connect\/auth\?/);
  await fillLoginForm(page, 'alice');
  await expect(page.locator('#state')).toHaveText('signed in as alice');
}
