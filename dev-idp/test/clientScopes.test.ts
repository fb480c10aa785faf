import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startDevIdp } from '../src/index.js';
import type { DevIdp } from '../src/index.js';
import { authorizationUrl, callbackParams, decodeJwt, endpoint, exchange, signIn } from './support/codeFlow.js';
import type { Tokens } from './support/codeFlow.js';
import { APP, CLIENT, scopedRealm, twoUserRealm } from './support/fixtures.js';
import { FormBrowser } from './support/FormBrowser.js';

// Client scopes as Keycloak 26.7.3 applies them (measured: decisions/0055; the differential test's "downscoped
// refresh" probes compare the same against a real Keycloak): the demo realm file's audience scopes and the
// downscoped refresh. `npm test` runs this; the differential test needs Java.

const SCOPED = 'scopes-test';
const STOCK = 'stock-scopes-test';
const SIGN_IN_SCOPE = 'openid role-audiences profile-api admin-api reports-api';
let idp: DevIdp;

before(async () => {
  idp = await startDevIdp({ port: 0, realms: [scopedRealm(SCOPED), twoUserRealm(STOCK)], quiet: true });
});
after(() => idp.close());

async function signedIn(realm = SCOPED, scope = SIGN_IN_SCOPE): Promise<Tokens> {
  const { code, verifier } = await signIn(idp.url, realm, 'alice', new FormBrowser(), { scope });
  const response = await exchange(idp.url, realm, code, verifier);
  assert.equal(response.status, 200);
  return (await response.json()) as Tokens;
}

function refresh(refreshToken: string, scope?: string, realm = SCOPED): Promise<Response> {
  return fetch(endpoint(idp.url, realm, 'token'), {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: CLIENT, refresh_token: refreshToken, ...(scope ? { scope } : {}) }),
  });
}

const claims = (token: string) => decodeJwt(token).payload;
const sorted = (value: unknown) => (Array.isArray(value) ? [...(value as string[])].sort() : value);
const words = (scope: unknown) => String(scope).split(' ').sort();

describe('client scopes (the demo realm file)', () => {
  test("the shell's sign-in token is for every API it asked for, account and the clients whose roles it carries", async () => {
    const tokens = await signedIn();
    const access = claims(tokens.access_token);
    assert.deepEqual(sorted(access.aud), ['account', 'admin-api', 'profile-api', 'reports', 'reports-api']);
    assert.deepEqual(words(access.scope), ['admin-api', 'email', 'openid', 'profile', 'profile-api', 'reports-api']);
    assert.ok(access.realm_access && access.resource_access, 'the roles scope is a default one');
  });

  test('without role-audiences a token has no account audience, and the account endpoint answers 401', async () => {
    const tokens = await signedIn(SCOPED, 'openid profile-api');
    assert.equal(claims(tokens.access_token).aud, 'profile-api');
    const account = await fetch(`${idp.url}/realms/${SCOPED}/account`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
    });
    assert.equal(account.status, 401);
  });

  test('a refresh with scope=profile-api answers a token for profile-api alone, and a refresh token with the whole scope', async () => {
    const tokens = await signedIn();
    const response = await refresh(tokens.refresh_token, 'profile-api');
    assert.equal(response.status, 200);
    const body = (await response.json()) as Tokens & { scope: string };
    const access = claims(body.access_token);
    assert.equal(access.aud, 'profile-api');
    assert.equal(access.azp, CLIENT);
    assert.deepEqual(words(access.scope), ['email', 'profile', 'profile-api']);
    assert.deepEqual(words(body.scope), ['email', 'profile', 'profile-api']);
    assert.deepEqual(words(claims(body.refresh_token).scope), words(claims(tokens.refresh_token).scope));
    // the session's refresh token still gives the broad token
    const again = (await (await refresh(tokens.refresh_token)).json()) as Tokens;
    assert.deepEqual(sorted(claims(again.access_token).aud), ['account', 'admin-api', 'profile-api', 'reports', 'reports-api']);
  });

  test('a downscoped token (no openid) is refused by userinfo: 403 "Missing openid scope"', async () => {
    const tokens = await signedIn();
    const { access_token } = (await (await refresh(tokens.refresh_token, 'profile-api')).json()) as Tokens;
    const userinfo = await fetch(endpoint(idp.url, SCOPED, 'userinfo'), { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(userinfo.status, 403);
    assert.equal(
      userinfo.headers.get('www-authenticate'),
      `Bearer realm="${SCOPED}", error="insufficient_scope", error_description="Missing openid scope"`,
    );
    const withOpenid = (await (await refresh(tokens.refresh_token, 'openid profile-api')).json()) as Tokens;
    const allowed = await fetch(endpoint(idp.url, SCOPED, 'userinfo'), { headers: { authorization: `Bearer ${withOpenid.access_token}` } });
    assert.equal(allowed.status, 200);
  });

  test('a scope that is no client scope of the client: 400 invalid_scope naming the whole parameter', async () => {
    const tokens = await signedIn();
    const response = await refresh(tokens.refresh_token, 'profile-api nope');
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { error: 'invalid_scope', error_description: 'Invalid scopes: profile-api nope' });
  });

  test('an optional scope the sign-in did not ask for is left out, without an error', async () => {
    const tokens = await signedIn(SCOPED, 'openid role-audiences profile-api');
    const response = await refresh(tokens.refresh_token, 'profile-api admin-api');
    assert.equal(response.status, 200);
    assert.equal(claims(((await response.json()) as Tokens).access_token).aud, 'profile-api');
  });

  test('a sign-in asking for a scope the client does not have is refused with invalid_scope', async () => {
    const { url } = authorizationUrl(idp.url, SCOPED, { scope: 'openid billing-api' });
    const response = await new FormBrowser().fetch(url);
    assert.equal(response.status, 302);
    const params = callbackParams(new URL(response.headers.get('location') ?? '', url));
    assert.equal(new URL(response.headers.get('location') ?? '', url).origin, APP);
    assert.equal(params.get('error'), 'invalid_scope');
    assert.equal(params.get('error_description'), 'Invalid scopes: openid billing-api');
  });

  test("a realm without client scopes has Keycloak's built-in ones: roles with audience resolve, profile and email shown", async () => {
    const tokens = await signedIn(STOCK, 'openid');
    const access = claims(tokens.access_token);
    assert.deepEqual(sorted(access.aud), ['account', 'reports']);
    assert.deepEqual(words(access.scope), ['email', 'openid', 'profile']);
    // and a downscoped refresh there keeps the default roles scope's audiences (Keycloak does too)
    const address = (await (await refresh(tokens.refresh_token, 'profile', STOCK)).json()) as Tokens;
    assert.deepEqual(sorted(claims(address.access_token).aud), ['account', 'reports']);
  });
});
