import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { acrClaim, acrRequest, requestedLevel } from '../src/sessions/acr.js';
import { startDevIdp } from '../src/index.js';
import type { DevIdp, RealmRepresentation } from '../src/index.js';
import { RealmFileError } from '../src/realm/RealmFileError.js';
import { demoRealm } from './support/fixtures.js';
import { FormBrowser } from './support/FormBrowser.js';

const APP = 'http://localhost:3000';
const VERIFIER = 'a'.repeat(64);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const GOLD = JSON.stringify({ id_token: { acr: { values: ['gold'], essential: true } } });

/** The demo realm's step-up levels and languages. */
function levelsRealm(): RealmRepresentation {
  return {
    ...demoRealm('levels', APP),
    attributes: { 'acr.loa.map': '{"silver":1,"gold":2}' },
    internationalizationEnabled: true,
    supportedLocales: ['en', 'de'],
    defaultLocale: 'en',
  };
}

let idp: DevIdp;
before(async () => {
  idp = await startDevIdp({ port: 0, realms: [levelsRealm(), demoRealm('plain', APP)], quiet: true });
});
after(() => idp.close());

function authUrl(realm: string, params: Record<string, string> = {}): URL {
  const query = new URLSearchParams({
    client_id: 'spa',
    response_type: 'code',
    scope: 'openid',
    state: 'st',
    nonce: 'n',
    redirect_uri: `${APP}/`,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...params,
  });
  return new URL(`${idp.url}/realms/${realm}/protocol/openid-connect/auth?${query}`);
}

function formAction(page: string, base: URL): URL {
  const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(page)?.[1];
  if (!action) throw new Error(`no form on the page: ${page.slice(0, 300)}`);
  return new URL(action.replace(/&amp;|&#38;/g, '&'), base);
}

async function post(browser: FormBrowser, url: URL, fields: Record<string, string>) {
  return browser.follow(url, (u) => u.origin === APP, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

/** Exchanges the code of `back` and returns the `acr` of the access and the ID token. */
async function tokenAcr(realm: string, back: URL): Promise<{ access: unknown; id: unknown }> {
  const code = back.searchParams.get('code');
  assert.ok(code, `no code in ${back.href}`);
  const response = await fetch(`${idp.url}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: 'spa',
      redirect_uri: `${APP}/`,
      code_verifier: VERIFIER,
    }),
  });
  assert.equal(response.status, 200);
  const body = (await response.json()) as { access_token: string; id_token: string };
  const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
  return { access: claims(body.access_token).acr, id: claims(body.id_token).acr };
}

/** Signs alice in with the password only (no level asked for). */
async function signInWithPassword(browser: FormBrowser, realm: string): Promise<URL> {
  const url = authUrl(realm);
  const page = await (await browser.fetch(url)).text();
  const { url: back } = await post(browser, formAction(page, url), { username: 'alice', password: 'alice' });
  return back;
}

describe("acr with the realm's acr.loa.map (Keycloak step-up)", () => {
  test('a password sign-in is the lowest named level: acr "silver" in both tokens', async () => {
    assert.deepEqual(await tokenAcr('levels', await signInWithPassword(new FormBrowser(), 'levels')), { access: 'silver', id: 'silver' });
  });

  test('a signed-in session asking for an essential "gold" gets the step form, then tokens with acr "gold"', async () => {
    const browser = new FormBrowser();
    await signInWithPassword(browser, 'levels');
    const url = authUrl('levels', { claims: GOLD });
    const first = await browser.fetch(url);
    assert.equal(first.status, 200, 'the step is answered at the authorization URL');
    const page = await first.text();
    assert.match(page, /Level “gold” needs one more step/);
    assert.doesNotMatch(page, /id="username"/, 'a signed-in visitor is not asked who they are');

    const wrong = await post(browser, formAction(page, url), { step: 'loa', password: 'nope' });
    const again = await wrong.response.text();
    assert.match(again, /<p id="input-error"[^>]*>Invalid password\.<\/p>/);

    const { url: back } = await post(browser, formAction(again, wrong.url), { step: 'loa', password: 'alice' });
    assert.deepEqual(await tokenAcr('levels', back), { access: 'gold', id: 'gold' });

    // the level stays with the session: a later sign-in of the page (check-sso) asks nothing and says gold
    const sso = await browser.follow(authUrl('levels', { prompt: 'none' }), (u) => u.origin === APP);
    assert.deepEqual(await tokenAcr('levels', sso.url), { access: 'gold', id: 'gold' });
  });

  test('a visitor not signed in who asks for "gold" enters the password, then the step for gold', async () => {
    const browser = new FormBrowser();
    const url = authUrl('levels', { acr_values: 'gold' });
    const page = await (await browser.fetch(url)).text();
    const afterPassword = await post(browser, formAction(page, url), { username: 'alice', password: 'alice' });
    const step = await afterPassword.response.text();
    assert.match(step, /Level “gold” needs one more step/, 'acr_values (not essential) asks for the level too, as in Keycloak');
    const { url: back } = await post(browser, formAction(step, afterPassword.url), { step: 'loa', password: 'alice' });
    assert.deepEqual(await tokenAcr('levels', back), { access: 'gold', id: 'gold' });
  });

  test('prompt=none cannot step up: interaction_required', async () => {
    const browser = new FormBrowser();
    await signInWithPassword(browser, 'levels');
    const { url } = await browser.follow(authUrl('levels', { claims: GOLD, prompt: 'none' }), (u) => u.origin === APP);
    assert.equal(url.searchParams.get('error'), 'interaction_required');
  });

  test('an essential acr the realm does not know is refused with "Invalid parameter: claims"; a voluntary one is not', async () => {
    const claims = JSON.stringify({ id_token: { acr: { values: ['platinum'], essential: true } } });
    const refused = await fetch(authUrl('levels', { claims }), { redirect: 'manual' });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /Invalid parameter: claims/);
    const voluntary = await fetch(authUrl('levels', { acr_values: 'platinum' }), { redirect: 'manual' });
    assert.equal(voluntary.status, 200);
  });

  test('discovery lists the levels', async () => {
    const discovery = (await (await fetch(`${idp.url}/realms/levels/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.deepEqual(discovery.acr_values_supported, ['0', '1', 'silver', 'gold']);
  });
});

describe("acr without a loa map (Keycloak's default browser flow)", () => {
  test('"1" for a sign-in with the password, "0" for a session reused by check-sso', async () => {
    const browser = new FormBrowser();
    assert.deepEqual(await tokenAcr('plain', await signInWithPassword(browser, 'plain')), { access: '1', id: '1' });
    const sso = await browser.follow(authUrl('plain', { prompt: 'none' }), (u) => u.origin === APP);
    assert.deepEqual(await tokenAcr('plain', sso.url), { access: '0', id: '0' });
  });
});

describe('login_hint and ui_locales on the login page', () => {
  test('login_hint prefills #username', async () => {
    const page = await (await fetch(authUrl('plain', { login_hint: 'alice@example.com' }))).text();
    assert.match(page, /<input id="username"[^>]*value="alice@example.com"/);
  });

  test("ui_locales sets the page's lang where the realm supports it (by language too), else the default", async () => {
    const lang = async (realm: string, uiLocales: string) =>
      /<html lang="([^"]+)"/.exec(await (await fetch(authUrl(realm, { ui_locales: uiLocales }))).text())?.[1];
    assert.equal(await lang('levels', 'de'), 'de');
    assert.equal(await lang('levels', 'fr de-CH'), 'de');
    assert.equal(await lang('levels', 'fr'), 'en');
    assert.equal(await lang('plain', 'de'), 'en', 'internationalization off: the default language, as Keycloak');
  });
});

describe("acr rules (Keycloak's AcrUtils and AcrProtocolMapper)", () => {
  const map = { silver: 1, gold: 2 };
  test('the requested level is the lowest asked for; numbers count as levels', () => {
    assert.deepEqual(requestedLevel(acrRequest(undefined, 'gold silver'), map), { level: 1 });
    assert.deepEqual(requestedLevel(acrRequest(undefined, '2'), map), { level: 2 });
    assert.deepEqual(requestedLevel(acrRequest(undefined, undefined), map), { level: undefined });
  });

  test('the token names the highest asked-for level reached, else the highest level of the map reached', () => {
    assert.equal(acrClaim(2, false, map, acrRequest(GOLD, undefined)), 'gold');
    assert.equal(acrClaim(2, false, map, acrRequest(undefined, 'silver')), 'silver');
    assert.equal(acrClaim(1, false, map, acrRequest(undefined, undefined)), 'silver');
    assert.equal(acrClaim(0, true, map, acrRequest(undefined, undefined)), '0');
  });

  test('a realm file with a malformed acr.loa.map is refused naming the field', async () => {
    const bad = { ...demoRealm('bad', APP), attributes: { 'acr.loa.map': '{"gold":"high"}' } };
    await assert.rejects(
      startDevIdp({ port: 0, realms: [bad], quiet: true }),
      (error: unknown) =>
        error instanceof RealmFileError && error.field === 'attributes["acr.loa.map"]' && /level numbers/.test(error.message),
    );
  });
});
