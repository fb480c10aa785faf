import type { BrowserContext, Page } from '@playwright/test';
import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { endSessionsOf, signInAsAdmin } from '@gatehouse/testkit/admin';
import { stepUpOfTheRealmFile } from '@gatehouse/testkit/keycloak';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { expect, test } from './support/fixtures';
import { answerThirdPartyCookiesUnsupported } from './support/thirdPartyCookies';

// With third-party cookies blocked, keycloak-js's check-sso is a full-page `prompt=none` round trip that
// comes back with `#error=login_required&state=…` (or the callback of a live session). keycloak-js removes
// it from the address bar; a router that read the address before still holds it and signs in with it.
const CALLBACK_PARAMETERS = ['code', 'state', 'session_state', 'iss', 'error', 'error_description'];

/** Every `redirect_uri` the tabs of `context` send to the authorization endpoint of `realmUrl`. */
function watchRedirectUris(context: BrowserContext, realmUrl: string): string[] {
  const sent: string[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (request.url().startsWith(`${realmUrl}/protocol/openid-connect/auth?`)) {
      // an authorization request without one fails the test's comparison instead of being skipped
      sent.push(url.searchParams.get('redirect_uri') ?? '(no redirect_uri)');
    }
  });
  return sent;
}

function callbackParametersIn(redirectUri: string): string[] {
  const url = new URL(redirectUri);
  const names = [...url.searchParams.keys(), ...new URLSearchParams(url.hash.slice(1)).keys()];
  return names.filter((name) => CALLBACK_PARAMETERS.includes(name));
}

/** The address the page's "router" read at load; keycloak-js has already cleaned the address bar. */
async function routerAddress(page: Page): Promise<string> {
  const address = await page.evaluate(() => window.gatehouse!.addressAtLoad);
  expect(new URL(page.url()).hash).toBe('');
  return address;
}

async function signInFrom(page: Page, redirectTo: string, expectedPath: string, appOrigin: string): Promise<void> {
  await page.evaluate((to) => void window.gatehouse!.session.login({ redirectTo: to }), redirectTo);
  await fillLoginForm(page, 'alice');
  await page.waitForURL(`${appOrigin}${expectedPath}`);
  await expect(page.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });
}

// the page on another site than the provider's, where keycloak-js asks the check this answers (decisions/0097)
test.use({ appHost: '127.0.0.1' });

test.beforeEach(async ({ context, idp }) => {
  await answerThirdPartyCookiesUnsupported(context, idp.url);
});

test('a deep link opened signed out signs in first time: the login_required of the check-sso round trip stays out of the redirect_uri', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  const sent = watchRedirectUris(context, `${idp.url}/realms/${realm}`);
  await page.goto(`${app.origin}/profile?tab=2`);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
  const address = await routerAddress(page);
  expect(address).toMatch(/^\/profile\?tab=2#error=login_required&.*state=/);

  await signInFrom(page, address, '/profile?tab=2', app.origin);

  expect(await page.evaluate(() => window.gatehouse!.snapshot().user?.username)).toBe('alice');
  expect(sent).toEqual([`${app.origin}/profile?tab=2`, `${app.origin}/profile?tab=2`]);
});

test('signing in again after an admin revocation works first time', async ({ page, context, app, idp, realm }) => {
  const sent = watchRedirectUris(context, `${idp.url}/realms/${realm}`);
  await page.goto(`${app.origin}/reports`);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
  await signInFrom(page, await routerAddress(page), '/reports', app.origin);
  await endSessionsOf(idp.url, realm, 'alice');

  // the visitor comes back to the page: check-sso's full-page round trip finds no session
  await page.reload();
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
  const address = await routerAddress(page);
  expect(address).toMatch(/error=login_required/);
  await signInFrom(page, address, '/reports', app.origin);

  expect(sent.flatMap(callbackParametersIn)).toEqual([]);
  expect(sent).toHaveLength(4);
});

test('step-up after a reload works first time: the reload callback stays out of the redirect_uri', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  const admin = await signInAsAdmin(idp.url);
  await admin.realms.del({ realm });
  // the realm file's levels and browser flow: without the flow, Keycloak answers acr_values=gold with silver
  await admin.realms.create({ ...testRealm(realm, { origin: app.origin }), ...stepUpOfTheRealmFile() });
  const sent = watchRedirectUris(context, `${idp.url}/realms/${realm}`);
  await page.goto(`${app.origin}/admin`);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
  await signInFrom(page, await routerAddress(page), '/admin', app.origin);

  // a reload signs in again through the full-page round trip, whose callback the router now holds
  await page.reload();
  await expect(page.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });
  const address = await routerAddress(page);
  expect(address).toMatch(/^\/admin#.*code=/);
  await page.evaluate((to) => void window.gatehouse!.session.login({ redirectTo: to, acr: 'gold' }), address);
  // the provider asks the signed-in user for the password only (titles differ: Keycloak's page says "Sign In")
  await expect(page.locator('#kc-attempted-username')).toHaveValue('alice');
  await expect(page.locator('#username')).toHaveCount(0);
  await page.locator('#password').fill('alice');
  await page.locator('#kc-login').click();
  await page.waitForURL(`${app.origin}/admin`);
  await expect(page.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });

  expect(await page.evaluate(() => window.gatehouse!.snapshot().acr)).toBe('gold');
  expect(sent.flatMap(callbackParametersIn)).toEqual([]);
  expect(sent).toHaveLength(4);
});
