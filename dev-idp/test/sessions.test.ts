import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import * as oidc from 'openid-client';

import { startDevIdp } from '../src/index.js';
import { createAdapterClass } from '../src/provider/adapter.js';
import { MemoryStore } from '../src/provider/MemoryStore.js';
import { SessionRegistry } from '../src/sessions/sessions.js';
import type { DevIdp } from '../src/index.js';
import { demoRealm } from './support/fixtures.js';
import { FormBrowser } from './support/FormBrowser.js';

const APP = 'http://localhost:3000';
const isApp = (url: URL): boolean => url.origin === APP;
let idp: DevIdp;

before(async () => {
  idp = await startDevIdp({
    realms: [
      { ...demoRealm('short'), ssoSessionIdleTimeout: 2 },
      demoRealm('frames'),
      { ...demoRealm('revoking'), revokeRefreshToken: true },
    ],
    quiet: true,
  });
});
after(() => idp.close());

async function signIn(realm: string, responseMode?: string) {
  const config = await oidc.discovery(new URL(`${idp.url}/realms/${realm}`), 'spa', undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const browser = new FormBrowser();
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${APP}/`,
    scope: 'openid',
    state: 'st',
    nonce: 'nn',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...(responseMode ? { response_mode: responseMode } : {}),
  });
  const login = await browser.follow(url, isApp);
  const { url: callback } = await browser.signIn(login.url, await login.response.text(), 'alice', 'alice', isApp);
  return { config, browser, verifier, callback };
}

/** A sign-in's code exchanged for its tokens, as keycloak-js does (the verifier; the state and nonce it sent). */
function tokensOf({ config, verifier, callback }: Awaited<ReturnType<typeof signIn>>) {
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'st', expectedNonce: 'nn' });
}

describe('sessions', () => {
  test('response_mode=fragment returns code and state in the fragment', async () => {
    const { callback } = await signIn('frames', 'fragment');
    const fragment = new URLSearchParams(callback.hash.slice(1));
    assert.ok(fragment.get('code'));
    assert.equal(fragment.get('state'), 'st');
    assert.equal(callback.search, '');
  });

  test('the idle timeout ends the session: refresh answers 400 "Session not active"', async () => {
    const signedIn = await signIn('short');
    const { config } = signedIn;
    const tokens = await tokensOf(signedIn);
    assert.ok(Number(tokens.refresh_expires_in) <= 2);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    await assert.rejects(
      oidc.refreshTokenGrant(config, tokens.refresh_token ?? ''),
      (error: oidc.ResponseBodyError) =>
        error.status === 400 && error.error === 'invalid_grant' && error.error_description === 'Session not active',
    );
  });

  test('a session past its idle timeout is not reused by the next authorization, even before the periodic sweep', async () => {
    const registry = new SessionRegistry(() => ({ idle: 2, max: 3600 }));
    const sso = registry.open('sid-1', 'alice');
    assert.ok(sso);
    const store = new MemoryStore();
    // what createProvider wires: oidc-provider's Session model finds go through the realm's SSO sessions
    const Adapter = createAdapterClass(
      store,
      () => undefined,
      () => {},
      (uid) => registry.ended(uid),
    );
    store.set('Session', 'browser-cookie', { uid: 'sid-1', accountId: 'alice' });
    const sessions = new Adapter('Session');
    assert.deepEqual(await sessions.find('browser-cookie'), { uid: 'sid-1', accountId: 'alice' });

    sso.lastActive -= 3; // the idle timeout has passed; no sweep has run since
    assert.equal(await sessions.find('browser-cookie'), undefined);
    assert.equal(registry.open('sid-1', 'alice'), undefined, 'an ended session id never opens again');
    assert.equal(registry.ended('sid-never-opened'), false, 'a sign-in in progress has not ended');
  });

  test('revokeRefreshToken: each refresh token works once, an older one is stale, and the session lives on', async () => {
    const signedIn = await signIn('revoking');
    const { config } = signedIn;
    const first = await tokensOf(signedIn);
    const second = await oidc.refreshTokenGrant(config, first.refresh_token ?? '');
    await assert.rejects(
      oidc.refreshTokenGrant(config, first.refresh_token ?? ''),
      (error: oidc.ResponseBodyError) =>
        error.status === 400 &&
        error.error === 'invalid_grant' &&
        error.error_description === 'Maximum allowed refresh token reuse exceeded',
    );
    await new Promise((resolve) => setTimeout(resolve, 1100)); // Keycloak compares whole seconds
    const third = await oidc.refreshTokenGrant(config, second.refresh_token ?? '');
    await assert.rejects(
      oidc.refreshTokenGrant(config, first.refresh_token ?? ''),
      (error: oidc.ResponseBodyError) =>
        error.status === 400 && error.error === 'invalid_grant' && error.error_description === 'Stale token',
    );
    assert.ok(await oidc.refreshTokenGrant(config, third.refresh_token ?? ''));
  });

  test('login-status frame: /init checks client and origin; the check follows the server session', async () => {
    const frame = `${idp.url}/realms/frames/protocol/openid-connect/login-status-iframe.html`;
    const page = await fetch(frame);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /postMessage/);
    assert.equal((await fetch(`${frame}/init?client_id=spa&origin=${encodeURIComponent(APP)}`)).status, 204);
    assert.equal((await fetch(`${frame}/init?client_id=spa&origin=${encodeURIComponent('http://evil.example')}`)).status, 403);
    assert.equal((await fetch(`${frame}/init?client_id=nope&origin=${encodeURIComponent(APP)}`)).status, 403);

    const signedIn = await signIn('frames');
    const { browser, config } = signedIn;
    const tokens = await tokensOf(signedIn);
    const sid = String(tokens.claims()?.sid);
    assert.ok(browser.cookies.get('KEYCLOAK_SESSION'));
    const check = async (s: string) => (await browser.fetch(`${frame}/status?session_state=${encodeURIComponent(s)}`)).text();
    assert.equal(await check(sid), 'unchanged');
    assert.equal(await check('another-session'), 'changed');
    assert.equal(await check(''), 'changed');

    const logout = await browser.fetch(oidc.buildEndSessionUrl(config, { client_id: 'spa' }));
    assert.equal(logout.status, 200);
    const confirm = await logout.text();
    assert.match(confirm, /id="kc-logout"/);
    const done = await browser.fetch(`${idp.url}/realms/frames/protocol/openid-connect/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'spa',
        confirm: 'true',
        session_code: /name="session_code" value="([^"]+)"/.exec(confirm)?.[1] ?? '',
      }),
    });
    assert.equal(done.status, 200);
    assert.equal(browser.cookies.get('KEYCLOAK_SESSION'), undefined);
    assert.equal(await check(sid), 'changed');
    assert.equal(await check(''), 'unchanged');
  });

  test('logout refuses an unregistered post_logout_redirect_uri', async () => {
    const response = await fetch(
      `${idp.url}/realms/frames/protocol/openid-connect/logout?client_id=spa&post_logout_redirect_uri=${encodeURIComponent('http://evil.example/')}`,
      { redirect: 'manual' },
    );
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('location'), null);
  });
});
