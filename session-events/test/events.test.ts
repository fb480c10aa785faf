// GET /events: a page subscribes for its own session with its DPoP-bound access token and a proof, hears its session's
// end (and no other's), and is refused without a valid token and proof.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startSessionEvents } from '../src/index.js';
import type { SessionEvents } from '../src/index.js';
import { accessToken, dpopKey, dpopProof, logoutToken, postLogout, startRealm, subscribe } from './support/realm.js';
import type { DpopKey, Realm, Subscription } from './support/realm.js';

const SHELL = 'http://localhost:3000';
let realm: Realm;
let service: SessionEvents;
let key: DpopKey;
const open: AbortController[] = [];

before(async () => {
  realm = await startRealm();
  service = await startSessionEvents({ port: 0, issuer: realm.issuer, origins: [SHELL], heartbeatSeconds: 0.2, quiet: true });
  key = await dpopKey();
});

after(async () => {
  for (const controller of open) controller.abort();
  await service?.close();
  await realm?.close();
});

async function subscribed(sid: string, sub = 'user-a'): Promise<Subscription> {
  const controller = new AbortController();
  open.push(controller);
  const subscription = await subscribe(service, await accessToken(realm, { sid, sub, key }), key, { signal: controller.signal });
  assert.equal(subscription.response.status, 200);
  assert.match(subscription.response.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.equal(subscription.response.headers.get('cache-control'), 'no-store');
  await subscription.next('ready');
  return subscription;
}

describe('a subscriber', () => {
  test("of session A hears A's end, with its sid, sub and the token's jti as id; the stream then closes", async () => {
    const a = await subscribed('A');
    const token = await logoutToken(realm, { sid: 'A', sub: 'user-a', jti: 'jti-of-A' });
    assert.equal((await postLogout(service.url, token)).status, 200);
    const ended = await a.next('session-ended');
    assert.equal(ended.id, 'jti-of-A');
    const data = JSON.parse(ended.data) as Record<string, unknown>;
    assert.deepEqual({ ...data, iat: typeof data['iat'] }, { sid: 'A', sub: 'user-a', reason: 'backchannel-logout', iat: 'number' });
    await a.done;
    assert.equal(a.ended, true);
  });

  test("of session B does not hear A's end; it hears heartbeats and then its own end", async () => {
    const a = await subscribed('A2');
    const b = await subscribed('B2');
    assert.equal(service.streams, 2);
    assert.equal((await postLogout(service.url, await logoutToken(realm, { sid: 'A2' }))).status, 200);
    await a.next('session-ended');
    await b.next('comment', 2000); // a heartbeat
    assert.equal(b.events.filter((e) => e.event === 'session-ended').length, 0, JSON.stringify(b.events));
    assert.equal((await postLogout(service.url, await logoutToken(realm, { sid: 'B2' }))).status, 200);
    await b.next('session-ended');
  });

  test("does not hear another user's end of a session of the same id", async () => {
    const a = await subscribed('A3', 'user-a');
    assert.equal((await postLogout(service.url, await logoutToken(realm, { sid: 'A3', sub: 'mallory' }))).status, 200);
    await a.next('comment', 2000);
    assert.equal(a.events.filter((e) => e.event === 'session-ended').length, 0);
  });

  test("a token naming only the user ends every session of that user, and no one else's", async () => {
    const mine = [await subscribed('U1', 'user-u'), await subscribed('U2', 'user-u')];
    const other = await subscribed('V1', 'user-v');
    assert.equal((await postLogout(service.url, await logoutToken(realm, { sid: undefined, sub: 'user-u' }))).status, 200);
    for (const s of mine) await s.next('session-ended');
    await other.next('comment', 2000);
    assert.equal(other.events.filter((e) => e.event === 'session-ended').length, 0);
  });

  test('who subscribes after the end (or reconnects having missed it) hears it at once', async () => {
    assert.equal((await postLogout(service.url, await logoutToken(realm, { sid: 'late' }))).status, 200);
    const late = await subscribe(service, await accessToken(realm, { sid: 'late', key }), key);
    assert.equal(late.response.status, 200);
    await late.next('session-ended');
    await late.done;
  });
});

describe('a subscription is refused', () => {
  const events = () => `${service.publicUrl}/events`;
  const get = async (headers: Record<string, string>) => {
    const response = await fetch(`${service.url}/events`, { headers, signal: AbortSignal.timeout(3000) });
    const body = (await response.json()) as { error: string; error_description: string };
    return { status: response.status, challenge: response.headers.get('www-authenticate') ?? '', ...body };
  };

  test('without a token: 401 with a DPoP challenge', async () => {
    const r = await get({});
    assert.equal(r.status, 401);
    assert.match(r.challenge, /^DPoP realm="session-events"/);
  });

  test('a token in the URL is not read', async () => {
    const token = await accessToken(realm, { key });
    const response = await fetch(`${service.url}/events?access_token=${token}`);
    assert.equal(response.status, 401);
    await response.body?.cancel();
  });

  test('a bound token as a bearer token, or without its proof', async () => {
    const token = await accessToken(realm, { key });
    assert.equal((await get({ authorization: `Bearer ${token}` })).status, 401);
    const r = await get({ authorization: `DPoP ${token}` });
    assert.equal(r.status, 401);
    assert.equal(r.error, 'invalid_dpop_proof');
  });

  test("with another key's proof, a proof for another URL, a proof used twice", async () => {
    const token = await accessToken(realm, { key });
    const other = await dpopKey();
    assert.match(
      (await get({ authorization: `DPoP ${token}`, dpop: await dpopProof(other, 'GET', events(), token) })).error_description,
      /another key/,
    );
    assert.match(
      (await get({ authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', `${service.publicUrl}/other`, token) }))
        .error_description,
      /htu/,
    );
    const proof = await dpopProof(key, 'GET', events(), token);
    const first = await fetch(`${service.url}/events`, { headers: { authorization: `DPoP ${token}`, dpop: proof } });
    assert.equal(first.status, 200);
    await first.body?.cancel();
    assert.match((await get({ authorization: `DPoP ${token}`, dpop: proof })).error_description, /used before/);
  });

  test('an unbound token, a token of another client, of another realm, without sid, expired, or an ID token', async () => {
    const cases: Array<[Promise<string>, RegExp]> = [
      [accessToken(realm), /not bound to a DPoP key/],
      [accessToken(realm, { key, claims: { azp: 'reports' } }), /issued to "reports"/],
      [accessToken(realm, { key, claims: { iss: 'http://localhost:8080/realms/other' } }), /iss/],
      [accessToken(realm, { key, claims: { sid: undefined } }), /names no session/],
      [accessToken(realm, { key, claims: { exp: Math.floor(Date.now() / 1000) - 10 } }), /expired/],
      [accessToken(realm, { key, claims: { typ: 'ID' } }), /not an access token/],
    ];
    for (const [made, reason] of cases) {
      const token = await made;
      const r = await get({ authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', events(), token) });
      assert.equal(r.status, 401, r.error_description);
      assert.match(r.error_description, reason);
    }
  });

  test('CORS: the shell may subscribe; another origin is refused, its preflight too', async () => {
    const preflight = (origin: string) =>
      fetch(`${service.url}/events`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,dpop' },
      });
    const ok = await preflight(SHELL);
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), SHELL);
    assert.equal((await preflight('https://evil.example')).status, 403);
    const token = await accessToken(realm, { key });
    const r = await fetch(`${service.url}/events`, {
      headers: { origin: 'https://evil.example', authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', events(), token) },
    });
    assert.equal(r.status, 403);
    assert.equal(r.headers.get('access-control-allow-origin'), null);
    await r.body?.cancel();
  });
});

describe('a stream and its token', () => {
  test('outlives the token it opened with (no refresh for it), and ends with renew after streamMaxSeconds', async () => {
    const short = await startSessionEvents({ port: 0, issuer: realm.issuer, heartbeatSeconds: 0.2, streamMaxSeconds: 2.5, quiet: true });
    const controller = new AbortController();
    try {
      // a token with 1 s left: the stream stays open past its exp, hearing heartbeats
      const token = await accessToken(realm, { sid: 'T1', sub: 'user-t', key, claims: { exp: Math.floor(Date.now() / 1000) + 1 } });
      const subscription = await subscribe(short, token, key, { signal: controller.signal });
      assert.equal(subscription.response.status, 200);
      const ready = JSON.parse((await subscription.next('ready')).data) as Record<string, unknown>;
      assert.equal(ready['maxAgeSeconds'], 2.5);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      assert.equal(subscription.ended, false, 'the stream ended with its token');
      assert.equal(short.streams, 1);
      const renew = await subscription.next('renew', 3000);
      assert.deepEqual(JSON.parse(renew.data), { maxAgeSeconds: 2.5 });
      await subscription.done;
      assert.equal(short.streams, 0);
    } finally {
      controller.abort();
      await short.close();
    }
  });
});
