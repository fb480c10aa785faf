import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import * as oidc from 'openid-client';

import { startDevIdp } from '../src/index.js';
import type { DevIdp } from '../src/index.js';
import { demoRealm } from './support/fixtures.js';
import { FormBrowser } from './support/FormBrowser.js';

const APP = 'http://localhost:3000';
const REDIRECT = `${APP}/callback`;
const isApp = (url: URL): boolean => url.origin === APP;

let idp: DevIdp;
let config: oidc.Configuration;

before(async () => {
  idp = await startDevIdp({ port: 0, realms: [demoRealm('http-test')], quiet: true });
  config = await oidc.discovery(new URL(`${idp.url}/realms/http-test`), 'spa', undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
});

after(() => idp.close());

async function authorize(browser: FormBrowser, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const { url: loginUrl, response } = await browser.follow(url, isApp);
  return { verifier, state, nonce, loginUrl, page: await response.text(), status: response.status };
}

async function signIn(browser = new FormBrowser()) {
  const flow = await authorize(browser);
  const { url: callback } = await browser.signIn(flow.loginUrl, flow.page, 'alice', 'alice', isApp);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  return { browser, flow, callback, tokens };
}

describe('code flow with PKCE through the login form (openid-client)', () => {
  test('discovery names Keycloak endpoints, including the login-status frame', () => {
    const meta = config.serverMetadata();
    const base = `${idp.url}/realms/http-test/protocol/openid-connect`;
    assert.equal(meta.issuer, `${idp.url}/realms/http-test`);
    assert.equal(meta.authorization_endpoint, `${base}/auth`);
    assert.equal(meta.token_endpoint, `${base}/token`);
    assert.equal(meta.userinfo_endpoint, `${base}/userinfo`);
    assert.equal(meta.end_session_endpoint, `${base}/logout`);
    assert.equal(meta.jwks_uri, `${base}/certs`);
    assert.equal(meta.check_session_iframe, `${base}/login-status-iframe.html`);
  });

  test("the login page has Keycloak's fields", async () => {
    const { page, status } = await authorize(new FormBrowser());
    assert.equal(status, 200);
    assert.match(page, /<label for="username">Username or email<\/label>/);
    assert.match(page, /id="password"/);
    assert.match(page, /id="kc-login"[^>]*value="Sign In"/);
  });

  test('signs in, validates the ID token and reads Keycloak claims', async () => {
    const { tokens, callback } = await signIn();
    assert.ok(callback.searchParams.get('code'));
    const id = tokens.claims();
    assert.ok(id);
    assert.equal(id.typ, 'ID');
    assert.equal(id.preferred_username, 'alice');
    assert.ok(id.sid);
    const access = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, any>;
    assert.equal(access.typ, 'Bearer');
    assert.equal(access.azp, 'spa');
    assert.equal(access.sid, id.sid);
    assert.deepEqual(access['allowed-origins'], [APP]);
    assert.ok(access.realm_access.roles.includes('admin'));
    assert.ok(access.realm_access.roles.includes('offline_access'));
    assert.deepEqual(access.resource_access.reports.roles, ['viewer']);
    assert.ok(access.resource_access.account.roles.includes('view-profile'));
    assert.equal(access.name, 'Alice Anders');
    assert.equal(access.email, 'alice@example.com');
    const refresh = JSON.parse(Buffer.from(tokens.refresh_token?.split('.')[1] ?? '', 'base64url').toString()) as Record<string, any>;
    assert.equal(refresh.typ, 'Refresh');
    assert.equal(refresh.sid, id.sid);
    assert.equal(tokens.session_state, id.sid);
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.ok(Number(tokens.refresh_expires_in) > 0);
  });

  test('refreshes, and the old refresh token stays usable (no rotation, as Keycloak)', async () => {
    const { tokens } = await signIn();
    const first = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? '');
    assert.ok(first.access_token);
    assert.notEqual(first.access_token, tokens.access_token);
    const again = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? '');
    assert.ok(again.access_token);
  });

  test('userinfo and account answer for the token', async () => {
    const { tokens } = await signIn();
    const sub = tokens.claims()?.sub ?? '';
    const info = await oidc.fetchUserInfo(config, tokens.access_token, sub);
    assert.equal(info.preferred_username, 'alice');
    assert.equal(info.email, 'alice@example.com');
    const account = await fetch(`${idp.url}/realms/http-test/account`, {
      headers: { accept: 'application/json', authorization: `bearer ${tokens.access_token}` },
    });
    assert.equal(account.status, 200);
    const profile = (await account.json()) as Record<string, unknown>;
    assert.equal(profile.username, 'alice');
    assert.equal(profile.firstName, 'Alice');
    assert.equal(profile.emailVerified, true);
    assert.equal(profile.id, sub);
  });

  test("CORS: the client's origin gets credentials, a foreign origin gets no CORS headers", async () => {
    const { tokens } = await signIn();
    const ask = (origin: string) =>
      fetch(`${idp.url}/realms/http-test/protocol/openid-connect/userinfo`, {
        headers: { origin, authorization: `Bearer ${tokens.access_token}` },
      });
    const own = await ask(APP);
    assert.equal(own.headers.get('access-control-allow-origin'), APP);
    assert.equal(own.headers.get('access-control-allow-credentials'), 'true');
    const foreign = await ask('http://evil.example');
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
    const token = await fetch(config.serverMetadata().token_endpoint ?? '', {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: tokens.refresh_token ?? '' }),
    });
    assert.equal(token.headers.get('access-control-allow-origin'), null);
    const ownToken = await fetch(config.serverMetadata().token_endpoint ?? '', {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: tokens.refresh_token ?? '' }),
    });
    assert.equal(ownToken.status, 200);
    assert.equal(ownToken.headers.get('access-control-allow-origin'), APP);
    assert.equal(ownToken.headers.get('access-control-allow-credentials'), 'true');
  });
});

describe('refusals', () => {
  test("a wrong password shows Keycloak's message and no redirect", async () => {
    const browser = new FormBrowser();
    const flow = await authorize(browser);
    const { response } = await browser.signIn(flow.loginUrl, flow.page, 'alice', 'wrong', isApp);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /<p id="input-error"[^>]*>Invalid username or password\.<\/p>/);
  });

  test('an unregistered redirect_uri gets an error page, never a redirect', async () => {
    for (const uri of ['http://evil.example/cb', 'http://localhost:3000.evil.com/cb', 'http://localhost:3001/cb']) {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: uri,
        scope: 'openid',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      });
      const response = await fetch(url, { redirect: 'manual' });
      assert.equal(response.status, 400, uri);
      assert.equal(response.headers.get('location'), null);
      assert.match(await response.text(), /Invalid parameter: redirect_uri/);
    }
  });

  test('a code can be used once', async () => {
    const browser = new FormBrowser();
    const flow = await authorize(browser);
    const { url: callback } = await browser.signIn(flow.loginUrl, flow.page, 'alice', 'alice', isApp);
    const checks = { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce };
    await oidc.authorizationCodeGrant(config, callback, checks);
    await assert.rejects(oidc.authorizationCodeGrant(config, callback, checks), (error: oidc.ResponseBodyError) => {
      assert.equal(error.error, 'invalid_grant');
      assert.equal(error.status, 400);
      return true;
    });
  });

  test('a wrong PKCE verifier is refused', async () => {
    const browser = new FormBrowser();
    const flow = await authorize(browser);
    const { url: callback } = await browser.signIn(flow.loginUrl, flow.page, 'alice', 'alice', isApp);
    await assert.rejects(
      oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      }),
      (error: oidc.ResponseBodyError) => error.error === 'invalid_grant' && error.status === 400,
    );
  });

  test('an authorization request without PKCE is refused when the client requires it', async () => {
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's1' });
    const response = await fetch(url, { redirect: 'manual' });
    assert.equal(response.status, 303);
    const location = new URL(response.headers.get('location') ?? '');
    assert.equal(location.origin, APP);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.equal(location.searchParams.get('state'), 's1');
  });

  test('prompt=none without a session answers login_required, without a page', async () => {
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      prompt: 'none',
      response_mode: 'fragment',
      state: 's2',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');
    const fragment = new URLSearchParams(location.hash.slice(1));
    assert.equal(fragment.get('error'), 'login_required');
    assert.equal(fragment.get('state'), 's2');
  });

  test('a tampered token gets 401 from userinfo and account', async () => {
    const { tokens } = await signIn();
    const [header, payload, signature] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = [
      header,
      Buffer.from(JSON.stringify({ ...claims, preferred_username: 'mallory' })).toString('base64url'),
      signature,
    ].join('.');
    const info = await fetch(`${idp.url}/realms/http-test/protocol/openid-connect/userinfo`, {
      headers: { authorization: `Bearer ${forged}` },
    });
    assert.equal(info.status, 401);
    assert.match(info.headers.get('www-authenticate') ?? '', /invalid_token/);
    const account = await fetch(`${idp.url}/realms/http-test/account`, {
      headers: { accept: 'application/json', authorization: `Bearer ${forged}` },
    });
    assert.equal(account.status, 401);
  });

  test('after logout the refresh token is refused with "Session not active"', async () => {
    const { tokens, browser } = await signIn();
    const logout = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token ?? '', post_logout_redirect_uri: `${APP}/` });
    const response = await browser.fetch(logout);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), `${APP}/`);
    await assert.rejects(oidc.refreshTokenGrant(config, tokens.refresh_token ?? ''), (error: oidc.ResponseBodyError) => {
      assert.equal(error.status, 400);
      assert.equal(error.error, 'invalid_grant');
      assert.equal(error.error_description, 'Session not active');
      return true;
    });
    // as Keycloak's, the refusal carries CORS for the client's web origins, so a page can read the 401
    const info = await fetch(`${idp.url}/realms/http-test/protocol/openid-connect/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, origin: APP },
    });
    assert.equal(info.status, 401);
    assert.equal(info.headers.get('access-control-allow-origin'), APP);
    assert.equal(info.headers.get('access-control-allow-credentials'), 'true');
  });
});
