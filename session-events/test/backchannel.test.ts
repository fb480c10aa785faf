// POST /backchannel-logout: a logout token is taken only as OpenID Connect Back-Channel Logout 1.0, 2.6 says (200);
// every forged, wrong or replayed one is refused with 400, a JSON error and Cache-Control: no-store, and ends nothing.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { startSessionEvents } from '../src/index.js';
import type { SessionEvents, SessionEnded } from '../src/index.js';
import { logoutToken, postLogout, startRealm } from './support/realm.js';
import type { Realm } from './support/realm.js';

let realm: Realm;
let service: SessionEvents;
const heard: SessionEnded[] = [];

before(async () => {
  realm = await startRealm();
  service = await startSessionEvents({ port: 0, issuer: realm.issuer, quiet: true });
  service.bus.listen((ended) => heard.push(ended));
});

after(async () => {
  await service?.close();
  await realm?.close();
});

/** Posts `token`; asserts a 400 with a JSON error and no-store, and that no end was published; returns the reason. */
async function refused(token: string | Promise<string>): Promise<string> {
  const before = heard.length;
  const response = await postLogout(service.url, await token);
  const body = (await response.json()) as { error: string; error_description: string };
  assert.equal(response.status, 400, JSON.stringify(body));
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(body.error, 'invalid_request');
  assert.equal(heard.length, before, 'a refused token ended a session');
  return body.error_description;
}

describe('a logout token as Keycloak sends it', () => {
  test('is taken: 200, no-store, and the end of its session is published', async () => {
    const response = await postLogout(service.url, await logoutToken(realm, { sid: 'taken', sub: 'user-t' }));
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.deepEqual(
      heard.map(({ sid, sub }) => ({ sid, sub })),
      [{ sid: 'taken', sub: 'user-t' }],
    );
  });

  test('a token naming only the user (no sid) is taken too', async () => {
    assert.equal((await postLogout(service.url, await logoutToken(realm, { sid: undefined }))).status, 200);
  });

  test('the same token twice: the second is refused (jti)', async () => {
    const token = await logoutToken(realm);
    assert.equal((await postLogout(service.url, token)).status, 200);
    assert.equal(await refused(token), 'this logout token was used before (jti)');
  });
});

describe('a forged or wrong logout token is refused', () => {
  test('signed with another key (same kid)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    assert.equal(await refused(logoutToken(realm, {}, { key: privateKey })), "the logout token's signature does not verify");
  });

  test('signed with a key the realm does not publish', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    assert.match(await refused(logoutToken(realm, {}, { key: privateKey, header: { kid: 'other' } })), /does not publish/);
  });

  test('of another issuer', async () => {
    assert.match(await refused(logoutToken(realm, { iss: 'http://localhost:8080/realms/other' })), /issued by .*realms\/other/);
  });

  test('for another client', async () => {
    assert.match(await refused(logoutToken(realm, { aud: 'reports' })), /is for "reports", not gatehouse-shell/);
  });

  test('without events, or without the back-channel logout event', async () => {
    assert.equal(await refused(logoutToken(realm, { events: undefined })), 'the logout token has no events claim');
    assert.match(await refused(logoutToken(realm, { events: { 'https://example.com/other': {} } })), /events claim has no/);
    assert.match(
      await refused(logoutToken(realm, { events: { 'http://schemas.openid.net/event/backchannel-logout': 'yes' } })),
      /events claim has no/,
    );
  });

  test('with a nonce (an ID token)', async () => {
    assert.match(await refused(logoutToken(realm, { nonce: 'n' })), /carries a nonce/);
  });

  test('with neither sid nor sub', async () => {
    assert.match(await refused(logoutToken(realm, { sid: undefined, sub: undefined })), /neither a session \(sid\) nor a user \(sub\)/);
  });

  test('expired, too old, from the future, without iat or jti', async () => {
    const now = Math.floor(Date.now() / 1000);
    assert.equal(await refused(logoutToken(realm, { iat: now - 200, exp: now - 80 })), 'the logout token expired (exp)');
    assert.match(await refused(logoutToken(realm, { iat: now - 300, exp: now + 60 })), /too old/);
    assert.match(await refused(logoutToken(realm, { iat: now + 300, exp: now + 420 })), /in the future/);
    assert.match(await refused(logoutToken(realm, { iat: undefined })), /iat/);
    assert.match(await refused(logoutToken(realm, { jti: undefined })), /jti/);
  });

  test('typed as another kind of token (an access token: typ JWT), or signed with HS256', async () => {
    assert.match(await refused(logoutToken(realm, {}, { header: { typ: 'JWT' } })), /typ is "JWT", not "logout\+jwt"/);
    const { createSecretKey } = await import('node:crypto');
    const { SignJWT } = await import('jose');
    const hs = await new SignJWT({ iss: realm.issuer })
      .setProtectedHeader({ alg: 'HS256', typ: 'logout+jwt' })
      .sign(createSecretKey(Buffer.alloc(32, 1)));
    assert.match(await refused(hs), /algorithm/);
  });

  test('no token, two tokens, not a form, not a JWT', async () => {
    const post = (body: string, type = 'application/x-www-form-urlencoded') =>
      fetch(`${service.url}/backchannel-logout`, { method: 'POST', headers: { 'content-type': type }, body });
    for (const [response, reason] of [
      [await post(''), 'exactly one logout_token'],
      [await post('logout_token=a&logout_token=b'), 'exactly one logout_token'],
      [await post('{"logout_token":"x"}', 'application/json'), 'application/x-www-form-urlencoded'],
      [await post('logout_token=not.a.jwt'), 'not a JWT'],
    ] as const) {
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.ok(((await response.json()) as { error_description: string }).error_description.includes(reason));
    }
  });

  test('GET is not a logout: 405', async () => {
    assert.equal((await fetch(`${service.url}/backchannel-logout`)).status, 405);
  });
});
