import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startDevIdp } from '../src/index.js';
import type { DevIdp, RealmRepresentation } from '../src/index.js';
import { demoRealm } from './support/fixtures.js';
import { FormBrowser } from './support/FormBrowser.js';

const APP = 'http://localhost:3000';
const NOT_ALLOWED = 'Client is not allowed to initiate browser login with given response_type.';

/** Clients as the admin API makes them (no post-logout attribute), and with each flow switched. */
function flowsRealm(): RealmRepresentation {
  const realm = demoRealm('flows', APP);
  const base = { enabled: true, publicClient: true, redirectUris: [`${APP}/*`], webOrigins: ['+'] };
  realm.clients = [
    ...(realm.clients ?? []),
    { ...base, clientId: 'plain' },
    { ...base, clientId: 'no-logout-redirect', attributes: { 'post.logout.redirect.uris': '-' } },
    { ...base, clientId: 'no-standard-flow', standardFlowEnabled: false },
  ];
  return realm;
}

let idp: DevIdp;
let realmUrl: string;

before(async () => {
  idp = await startDevIdp({ port: 0, realms: [flowsRealm()], quiet: true });
  realmUrl = `${idp.url}/realms/flows`;
});

after(() => idp.close());

function authUrl(params: Record<string, string>): string {
  const query = new URLSearchParams({ scope: 'openid', state: 'st', nonce: 'n', redirect_uri: `${APP}/`, ...params });
  return `${realmUrl}/protocol/openid-connect/auth?${query}`;
}

/** Opens the authorization URL, signs alice in and answers the redirect to the app. */
async function signIn(browser: FormBrowser, url: string): Promise<URL> {
  const first = await browser.fetch(url);
  assert.equal(first.status, 200, 'the authorization URL answers the login form itself');
  const { url: back } = await browser.signIn(new URL(url), await first.text(), 'alice', 'alice', (u) => u.origin === APP);
  return back;
}

const pkce = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };

describe('the login form lives at the authorization URL (as Keycloak)', () => {
  test("GET …/auth answers 200 with the form, posting to login-actions/authenticate with Keycloak's parameters", async () => {
    const response = await fetch(authUrl({ client_id: 'spa', response_type: 'code', ...pkce }), { redirect: 'manual' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('location'), null);
    const page = await response.text();
    for (const id of ['username', 'password', 'kc-login']) assert.match(page, new RegExp(`id="${id}"`));
    const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;|&#38;/g, '&') ?? '';
    const target = new URL(action, realmUrl);
    assert.equal(target.pathname, '/realms/flows/login-actions/authenticate');
    assert.ok(target.searchParams.get('session_code'));
    assert.ok(target.searchParams.get('execution'));
    assert.equal(target.searchParams.get('client_id'), 'spa');
    assert.ok(target.searchParams.get('tab_id'));
  });

  test('a failed attempt shows the error at login-actions/authenticate, and the next attempt signs in', async () => {
    const browser = new FormBrowser();
    const url = authUrl({ client_id: 'spa', response_type: 'code', ...pkce });
    const first = await browser.fetch(url);
    const wrong = await browser.signIn(new URL(url), await first.text(), 'alice', 'nope', (u) => u.origin === APP);
    assert.equal(wrong.url.pathname, '/realms/flows/login-actions/authenticate');
    const again = await wrong.response.text();
    assert.match(again, /<p id="input-error"[^>]*>Invalid username or password\.<\/p>/);
    const { url: back } = await browser.signIn(wrong.url, again, 'alice', 'alice', (u) => u.origin === APP);
    assert.ok(back.searchParams.get('code'));
  });
});

describe('post-logout redirect URIs default as in Keycloak', () => {
  const logout = (clientId: string) =>
    `${realmUrl}/protocol/openid-connect/logout?${new URLSearchParams({
      client_id: clientId,
      post_logout_redirect_uri: `${APP}/bye`,
    })}`;

  test('a client without the attribute accepts its valid redirect URIs', async () => {
    const response = await fetch(logout('plain'), { redirect: 'manual' });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /id="kc-logout"/);
  });

  test('"-" forbids post-logout redirects', async () => {
    const response = await fetch(logout('no-logout-redirect'), { redirect: 'manual' });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /Invalid redirect uri/);
  });
});

describe("the redirect URI's own fragment is kept (response_mode=fragment)", () => {
  for (const fragment of ['#/admin/users?tab=details&sort=asc', '#section=preserved', '#&&foo=bar&&baz=qux&=bax&fuz=']) {
    test(`${fragment}: the response is appended to it`, async () => {
      const back = await signIn(
        new FormBrowser(),
        authUrl({
          client_id: 'spa',
          response_type: 'code',
          response_mode: 'fragment',
          redirect_uri: `${APP}/${fragment}`,
          ...pkce,
        }),
      );
      assert.ok(back.hash.startsWith(`${fragment}&`), back.hash);
      const added = new URLSearchParams(back.hash.slice(fragment.length + 1));
      assert.ok(added.get('code'));
      assert.equal(added.get('state'), 'st');
    });
  }
});

describe("no implicit flow: Keycloak's errors for a client that has it off, and a realm file that turns it on is refused", () => {
  const errorOf = async (url: string, where: 'hash' | 'search') => {
    const response = await fetch(url, { redirect: 'manual' });
    assert.equal(response.status, 302);
    const location = new URL(response.headers.get('location') ?? '');
    assert.equal(location.origin, APP);
    const params = new URLSearchParams(location[where].slice(1));
    return { error: params.get('error'), description: params.get('error_description'), state: params.get('state') };
  };

  test('implicit disabled: unauthorized_client in the fragment', async () => {
    assert.deepEqual(await errorOf(authUrl({ client_id: 'spa', response_type: 'id_token token' }), 'hash'), {
      error: 'unauthorized_client',
      description: `${NOT_ALLOWED} Implicit flow is disabled for the client.`,
      state: 'st',
    });
  });

  test('standard flow disabled: the client still exists and refuses the code flow', async () => {
    assert.deepEqual(await errorOf(authUrl({ client_id: 'no-standard-flow', response_type: 'code' }), 'search'), {
      error: 'unauthorized_client',
      description: `${NOT_ALLOWED} Standard flow is disabled for the client.`,
      state: 'st',
    });
  });

  test('response_mode=query is refused for the implicit flow', async () => {
    assert.deepEqual(await errorOf(authUrl({ client_id: 'spa', response_type: 'id_token token', response_mode: 'query' }), 'search'), {
      error: 'invalid_request',
      description: "Response_mode 'query' not allowed for implicit or hybrid flow",
      state: 'st',
    });
  });

  test('a realm file with implicitFlowEnabled: true is refused, naming the field', async () => {
    const realm = demoRealm('implicit', APP);
    realm.clients = [{ clientId: 'implicit', publicClient: true, redirectUris: [`${APP}/*`], implicitFlowEnabled: true }];
    await assert.rejects(startDevIdp({ port: 0, realms: [realm], quiet: true }), (error: Error) => {
      assert.match(error.message, /clients\[0\]\.implicitFlowEnabled: the dev IdP has no implicit flow/);
      return true;
    });
  });
});
