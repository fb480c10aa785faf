import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation';
import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { expect, status, test } from './support/fixtures';

/**
 * The demo realm's step-up browser flow (a level-2 sign-in asks for the password again): what makes Keycloak
 * step up; the dev provider has the same step built in.
 */
const demoRealm = JSON.parse(readFileSync(join(__dirname, '../../../deploy/keycloak/gatehouse-realm.json'), 'utf8')) as RealmRepresentation;
const stepUpFlow = {
  browserFlow: demoRealm.browserFlow,
  authenticationFlows: demoRealm.authenticationFlows,
  authenticatorConfig: demoRealm.authenticatorConfig,
};

/** This test's realm with Keycloak's step-up levels and flow and two languages, as the demo realm has them. */
test.beforeEach(async ({ idp, app, realm }) => {
  const admin = await signInAsAdmin(idp.url);
  await admin.realms.del({ realm });
  await admin.realms.create({
    ...testRealm(realm, { origin: app.origin }),
    ...stepUpFlow,
    attributes: { 'acr.loa.map': '{"silver":1,"gold":2}' },
    internationalizationEnabled: true,
    supportedLocales: ['en', 'de'],
    defaultLocale: 'en',
  });
});

test('login({ loginHint, locale }) reaches the login form: the username is prefilled and the page is in that language', async ({
  page,
  app,
}) => {
  await page.goto(`${app.origin}/start`);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });

  await page.evaluate(
    () => void window.gatehouse!.session.login({ redirectTo: '/signed-in', loginHint: 'alice@example.com', locale: 'de' }),
  );

  await expect(page.locator('#username')).toHaveValue('alice@example.com');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const sent = new URL(page.url()).searchParams;
  expect([sent.get('login_hint'), sent.get('ui_locales')]).toEqual(['alice@example.com', 'de']);
});

test('login({ acr }) steps a password session up: the provider asks once more, the session then says acr "gold"', async ({ page, app }) => {
  await page.goto(`${app.origin}/start`);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
  await page.evaluate(() => void window.gatehouse!.session.login({ redirectTo: '/signed-in' }));
  await page.locator('#username').fill('alice');
  await page.locator('#password').fill('alice');
  await page.locator('#kc-login').click();
  await page.waitForURL(`${app.origin}/signed-in`);
  await expect.poll(() => status(page), { timeout: 15_000 }).toBe('authenticated');
  expect(await page.evaluate(() => window.gatehouse!.snapshot().acr)).toBe('silver');

  await page.evaluate(() => void window.gatehouse!.session.login({ redirectTo: '/signed-in', acr: 'gold' }));

  await expect(page.locator('#kc-attempted-username')).toHaveValue('alice');
  await expect(page.locator('#username')).toHaveCount(0);
  await page.locator('#password').fill('alice');
  await page.locator('#kc-login').click();
  await page.waitForURL(`${app.origin}/signed-in`);
  await expect.poll(() => status(page), { timeout: 15_000 }).toBe('authenticated');
  expect(await page.evaluate(() => window.gatehouse!.snapshot().acr)).toBe('gold');
});
