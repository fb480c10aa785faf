import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, mock, test } from 'node:test';

import { MemoryStore } from '../src/provider/MemoryStore.js';
import { realmFromRepresentation } from '../src/realm/loadRealm.js';
import { DevIdpServer } from '../src/server/server.js';
import { startDevIdp } from '../src/index.js';
import type { DevIdp, RealmRepresentation } from '../src/index.js';
import { demoRealm } from './support/fixtures.js';
import { FormBrowser } from './support/FormBrowser.js';

const APP = 'http://localhost:3000';
let idp: DevIdp;
let admin: string;

/** An authorization request of the code flow with PKCE, as keycloak-js sends it. */
function codeFlowParams(): URLSearchParams {
  return new URLSearchParams({
    client_id: 'spa',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${APP}/`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
}

function realm(name: string): RealmRepresentation {
  const rep = demoRealm(name, APP);
  rep.clients?.forEach((c) => {
    if (c.clientId === 'spa') c.directAccessGrantsEnabled = true;
  });
  return rep;
}

before(async () => {
  idp = await startDevIdp({ port: 0, realms: [realm('safe'), realm('other')], quiet: true });
  const response = await fetch(`${idp.url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin' }),
  });
  admin = ((await response.json()) as { access_token: string }).access_token;
});

after(() => idp.close());

const oidcUrl = (realmName: string, path: string) => `${idp.url}/realms/${realmName}/protocol/openid-connect/${path}`;
const adminFetch = (path: string, init: RequestInit = {}) =>
  fetch(`${idp.url}/admin/realms${path}`, {
    ...init,
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', ...init.headers },
  });

/** Code flow with PKCE through the form; answers the code and its verifier. */
async function code(realmName = 'safe'): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const url = `${oidcUrl(realmName, 'auth')}?${new URLSearchParams({
    client_id: 'spa',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${APP}/`,
    state: 's',
    nonce: 'n',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;
  const browser = new FormBrowser();
  const page = await browser.fetch(url);
  const { url: back } = await browser.signIn(new URL(url), await page.text(), 'alice', 'alice', (u) => u.origin === APP);
  return { code: back.searchParams.get('code') ?? '', verifier };
}

function exchange(realmName: string, grant: { code: string; verifier: string }) {
  return fetch(oidcUrl(realmName, 'token'), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'spa',
      redirect_uri: `${APP}/`,
      code: grant.code,
      code_verifier: grant.verifier,
    }),
  });
}

async function tokens(realmName = 'safe'): Promise<{ access_token: string; id_token: string; refresh_token: string }> {
  const response = await exchange(realmName, await code(realmName));
  assert.equal(response.status, 200);
  return (await response.json()) as { access_token: string; id_token: string; refresh_token: string };
}

const userinfo = (realmName: string, token: string) =>
  fetch(oidcUrl(realmName, 'userinfo'), { headers: { authorization: `Bearer ${token}` } });

describe('codes and hints', () => {
  test('a reused code is refused and revokes the tokens it issued', async () => {
    const grant = await code();
    const first = await exchange('safe', grant);
    const issued = (await first.json()) as { access_token: string; refresh_token: string };
    assert.equal((await userinfo('safe', issued.access_token)).status, 200);
    assert.equal((await exchange('safe', grant)).status, 400);
    assert.equal((await userinfo('safe', issued.access_token)).status, 401);
    const refresh = await fetch(oidcUrl('safe', 'token'), {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: issued.refresh_token }),
    });
    assert.equal(refresh.status, 400);
  });

  test('a code presented with a wrong PKCE verifier is used up', async () => {
    const grant = await code();
    assert.equal((await exchange('safe', { ...grant, verifier: randomBytes(48).toString('base64url') })).status, 400);
    const retry = await exchange('safe', grant);
    assert.equal(retry.status, 400);
    assert.equal(((await retry.json()) as { error: string }).error, 'invalid_grant');
  });

  test('id_token_hint must be an ID token of this realm, issued to the client_id given', async () => {
    const own = await tokens();
    const foreign = await tokens('other');
    const logout = (hint: string, clientId?: string) =>
      fetch(
        `${oidcUrl('safe', 'logout')}?${new URLSearchParams({
          id_token_hint: hint,
          post_logout_redirect_uri: `${APP}/`,
          ...(clientId ? { client_id: clientId } : {}),
        })}`,
        { redirect: 'manual' },
      );
    for (const hint of [own.access_token, own.refresh_token, foreign.id_token]) {
      const response = await logout(hint);
      assert.equal(response.status, 400);
      assert.match(await response.text(), /Invalid parameter: id_token_hint/);
    }
    // Without a redirect, only the audience check can refuse it.
    const mismatch = await fetch(
      `${oidcUrl('safe', 'logout')}?${new URLSearchParams({ id_token_hint: own.id_token, client_id: 'reports' })}`,
    );
    assert.equal(mismatch.status, 400);
    assert.match(await mismatch.text(), /Invalid parameter: id_token_hint/);
    assert.equal((await logout(own.id_token, 'spa')).status, 302);
  });
});

describe('disabled realm and client', () => {
  test('a disabled realm refuses logins, password and code grants, and the tokens it issued', async () => {
    await adminFetch('', { method: 'POST', body: JSON.stringify(realm('off')) });
    const issued = await tokens('off');
    const grant = await code('off');
    assert.equal((await adminFetch('/off', { method: 'PUT', body: JSON.stringify({ enabled: false }) })).status, 204);
    const login = await fetch(`${oidcUrl('off', 'auth')}?client_id=spa&response_type=code&redirect_uri=${encodeURIComponent(`${APP}/`)}`);
    assert.equal(login.status, 403);
    assert.match(await login.text(), /Realm not enabled/);
    const password = await fetch(oidcUrl('off', 'token'), {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'spa', username: 'alice', password: 'alice' }),
    });
    assert.equal(password.status, 403);
    assert.equal((await exchange('off', grant)).status, 403);
    assert.equal((await userinfo('off', issued.access_token)).status, 401);
  });

  test("a disabled client's access tokens are refused at userinfo and account", async () => {
    await adminFetch('', { method: 'POST', body: JSON.stringify(realm('client-off')) });
    const issued = await tokens('client-off');
    const [spa] = (await (await adminFetch('/client-off/clients?clientId=spa')).json()) as Array<{ id: string }>;
    assert.equal((await userinfo('client-off', issued.access_token)).status, 200);
    const put = await adminFetch(`/client-off/clients/${spa?.id}`, {
      method: 'PUT',
      body: JSON.stringify({ clientId: 'spa', enabled: false }),
    });
    assert.equal(put.status, 204, await put.text());
    assert.equal((await userinfo('client-off', issued.access_token)).status, 401);
    const account = await fetch(`${idp.url}/realms/client-off/account`, {
      headers: { accept: 'application/json', authorization: `Bearer ${issued.access_token}` },
    });
    assert.equal(account.status, 401);
  });
});

describe('bad input gets a 4xx, never a stack trace', () => {
  test('malformed percent-encoding in a path, a cookie or Basic credentials answers 400', async () => {
    const path = await fetch(`${idp.url}/realms/%E0%A4%A/protocol/openid-connect/certs`);
    const cookie = await fetch(`${oidcUrl('safe', 'login-status-iframe.html/status')}?session_state=x`, {
      headers: { cookie: 'KEYCLOAK_SESSION=%E0%A4%A' },
    });
    const basic = await fetch(oidcUrl('safe', 'token'), {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'password', username: 'alice', password: 'alice' }),
    });
    for (const response of [path, cookie, basic]) {
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error_description: string };
      assert.match(body.error_description, /percent-encoding/);
      assert.doesNotMatch(body.error_description, /at .*\.ts/);
    }
  });

  test('a body over the limit answers 413', async () => {
    const response = await fetch(oidcUrl('safe', 'token'), { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) });
    assert.equal(response.status, 413);
  });

  test('realm names "." and ".." and absurd lifespans are refused with 400', async () => {
    for (const name of ['.', '..']) {
      assert.equal((await adminFetch('', { method: 'POST', body: JSON.stringify({ realm: name, enabled: true }) })).status, 400, name);
    }
    assert.equal(
      (await adminFetch('', { method: 'POST', body: JSON.stringify({ realm: 'huge', accessTokenLifespan: 1e308 }) })).status,
      400,
    );
    assert.equal((await adminFetch('/safe', { method: 'PUT', body: JSON.stringify({ ssoSessionMaxLifespan: 1e308 }) })).status, 400);
  });
});

describe('headers and CORS', () => {
  test('login and logout pages refuse framing by other sites and sniffing; the status frame stays frameable', async () => {
    const login = await fetch(`${oidcUrl('safe', 'auth')}?${codeFlowParams()}`);
    const logout = await fetch(oidcUrl('safe', 'logout'));
    for (const page of [login, logout]) {
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('x-frame-options'), 'SAMEORIGIN');
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'self'/);
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    }
    const frame = await fetch(oidcUrl('safe', 'login-status-iframe.html'));
    assert.equal(frame.headers.get('x-frame-options'), null);
  });

  test("/revoke answers CORS only for the client's web origins", async () => {
    const issued = await tokens();
    const revoke = (origin: string) =>
      fetch(oidcUrl('safe', 'revoke'), {
        method: 'POST',
        headers: { origin },
        body: new URLSearchParams({ client_id: 'spa', token: issued.refresh_token, token_type_hint: 'refresh_token' }),
      });
    const foreign = await revoke('http://evil.example');
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
    const own = await revoke(APP);
    assert.equal(own.headers.get('access-control-allow-origin'), APP);
    assert.equal(own.headers.get('access-control-allow-credentials'), 'true');
  });
});

describe('unfinished logins and expired entries are swept', () => {
  test('the store drops expired entries when swept, and never holds more than its limit', () => {
    mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    try {
      const store = new MemoryStore(100);
      for (let i = 0; i < 50; i++) store.set('Interaction', `abandoned-${i}`, { uid: String(i) }, 1800);
      store.set('Session', 'long', {}, 36000);
      assert.equal(store.size, 51);
      mock.timers.tick(1801 * 1000);
      store.sweep();
      assert.equal(store.size, 1);
      for (let i = 0; i < 500; i++) store.set('Interaction', `flood-${i}`, {}, 1800);
      assert.equal(store.size, 100);
      assert.ok(store.get('Interaction', 'flood-499'), 'the newest are kept');
    } finally {
      mock.timers.reset();
    }
  });

  test("abandoned /auth requests are gone once their lifespan has passed (the server's sweep)", async () => {
    const server = new DevIdpServer();
    await server.listen(0, '127.0.0.1');
    const runtime = await server.addRealm(realmFromRepresentation('flood', realm('flood')).realm);
    try {
      const url = `${server.baseUrl}/realms/flood/protocol/openid-connect/auth?${codeFlowParams()}`;
      for (let i = 0; i < 30; i++) assert.equal((await fetch(url)).status, 200);
      assert.ok(runtime.store.size >= 30);
      // a step-up abandoned half-way is remembered only as long as its login
      const uid = runtime.store.find('Interaction', () => true);
      assert.ok(uid, 'an open login is in the store');
      runtime.stepUps.set(uid, { userId: 'alice', level: 1 });
      server.sweep();
      assert.equal(runtime.stepUps.size, 1, 'a step-up whose login is still open is kept');
      const start = Date.now();
      mock.timers.enable({ apis: ['Date'], now: start + 1801 * 1000 });
      server.sweep();
      assert.equal(runtime.store.size, 0);
      assert.equal(runtime.stepUps.size, 0);
    } finally {
      mock.timers.reset();
      await server.close();
    }
  });
});
