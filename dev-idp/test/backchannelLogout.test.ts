import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { createLocalJWKSet, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTPayload } from 'jose';
import * as oidc from 'openid-client';

import { startDevIdp, testRealm } from '../src/index.js';
import type { DevIdp, RealmRepresentation } from '../src/index.js';
import { BACKCHANNEL_LOGOUT_EVENT } from '../src/tokens/logoutToken.js';
import { FormBrowser } from './support/FormBrowser.js';

// Back-channel logout as Keycloak 26.7.3 sends it (decisions/0118): which logouts post a logout token, to which
// clients, naming which session and user; checked with a real HTTP receiver, as session-events would get them.

const APP = 'http://localhost:3000';
const isApp = (url: URL): boolean => url.origin === APP;

/** What the receiver got: each POST's form, in order; a POST is answered when the test releases it. */
interface Received {
  form: URLSearchParams;
  contentType: string | undefined;
}

const received: Received[] = [];
const waiting: Array<() => void> = [];
const held: ServerResponse[] = [];
let holdAnswers = false;
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    received.push({ form: new URLSearchParams(body), contentType: req.headers['content-type'] });
    waiting.splice(0).forEach((wake) => wake());
    if (holdAnswers) held.push(res);
    else res.writeHead(200).end();
  });
});
let receiverUrl = '';
let idp: DevIdp;

/**
 * A realm whose `spa` takes back-channel logout, `quiet` does not, `front` does but logs out in the browser, and
 * `nosid` does without `backchannel.logout.session.required` but with `backchannel.logout.revoke.offline.tokens`.
 */
function backchannelRealm(name: string, url: string): RealmRepresentation {
  const rep = testRealm(name, { clientId: 'spa', origin: APP });
  const spa = rep.clients?.find((c) => c.clientId === 'spa');
  assert.ok(spa);
  spa.attributes = { ...spa.attributes, 'backchannel.logout.url': url, 'backchannel.logout.session.required': 'true' };
  spa.directAccessGrantsEnabled = true;
  rep.clients?.push({ ...spa, clientId: 'quiet', attributes: { ...spa.attributes, 'backchannel.logout.url': '' } });
  rep.clients?.push({ ...spa, clientId: 'front', frontchannelLogout: true });
  // as a realm file's client that names no session requirement: Keycloak leaves `sid` out then
  const { 'backchannel.logout.session.required': _, ...noSid } = spa.attributes;
  rep.clients?.push({ ...spa, clientId: 'nosid', attributes: { ...noSid, 'backchannel.logout.revoke.offline.tokens': 'true' } });
  return rep;
}

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/backchannel-logout`;
  idp = await startDevIdp({
    realms: [
      backchannelRealm('bcl', receiverUrl),
      { ...backchannelRealm('bcl-short', receiverUrl), ssoSessionIdleTimeout: 2 },
      // nothing listens on port 1: every POST fails
      backchannelRealm('bcl-down', 'http://127.0.0.1:1/backchannel-logout'),
    ],
    quiet: true,
  });
});
after(async () => {
  held.splice(0).forEach((res) => res.end());
  await idp.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** Resolves once the receiver holds `count` POSTs in all (from the start of the test: `from`). */
async function postsReceived(from: number, count: number): Promise<Received[]> {
  const deadline = Date.now() + 10_000;
  while (received.length < from + count) {
    if (Date.now() > deadline) assert.fail(`expected ${count} back-channel POSTs, got ${received.length - from}`);
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      setTimeout(resolve, 200);
    });
  }
  return received.slice(from);
}

/** No more POST than `count` arrives within a while (the sender posts beside the logout's answer, not before it). */
async function noMorePosts(from: number, count: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(received.length - from, count, 'no other back-channel POST');
}

/** Signs `clientId` in through `browser` (the login form the first time, the SSO session after) and gets its tokens. */
async function signIn(realm: string, clientId: string, browser = new FormBrowser()) {
  const config = await oidc.discovery(new URL(`${idp.url}/realms/${realm}`), clientId, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${APP}/`,
    scope: 'openid',
    state: 'st',
    nonce: 'nn',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const first = await browser.follow(url, isApp);
  const callback = isApp(first.url)
    ? first.url
    : (await browser.signIn(first.url, await first.response.text(), 'alice', 'alice', isApp)).url;
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: 'st',
    expectedNonce: 'nn',
  });
  const claims = tokens.claims();
  assert.ok(claims?.sid && claims.sub);
  return { config, browser, tokens, sid: String(claims.sid), sub: claims.sub };
}

/** The logout token of a POST, verified against the realm's published keys as a receiver does. */
async function logoutTokenOf(realm: string, post: Received, audience: string): Promise<JWTPayload> {
  assert.equal(post.contentType, 'application/x-www-form-urlencoded');
  assert.deepEqual([...post.form.keys()], ['logout_token']);
  const jwks = (await (await fetch(`${idp.url}/realms/${realm}/protocol/openid-connect/certs`)).json()) as JSONWebKeySet;
  const { payload } = await jwtVerify(post.form.get('logout_token') ?? '', createLocalJWKSet(jwks), {
    issuer: `${idp.url}/realms/${realm}`,
    audience,
    typ: 'logout+jwt',
  });
  assert.equal(payload.nonce, undefined);
  return payload;
}

/** A refresh refused because the session has ended (Keycloak's answer). */
const sessionNotActive = (error: oidc.ResponseBodyError): boolean =>
  error.status === 400 && error.error === 'invalid_grant' && error.error_description === 'Session not active';

async function adminToken(): Promise<string> {
  const response = await fetch(`${idp.url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin' }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

function admin(path: string, method: string): Promise<Response> {
  return adminToken().then((token) => fetch(`${idp.url}/admin/realms/${path}`, { method, headers: { authorization: `Bearer ${token}` } }));
}

describe('back-channel logout', () => {
  test('RP-initiated logout of the browser session: one token to spa, none to quiet (no URL) nor front (front-channel); the logout does not wait for it', async () => {
    const from = received.length;
    const spa = await signIn('bcl', 'spa');
    await signIn('bcl', 'quiet', spa.browser);
    await signIn('bcl', 'front', spa.browser);
    holdAnswers = true;
    try {
      const logout = await spa.browser.fetch(
        oidc.buildEndSessionUrl(spa.config, { id_token_hint: spa.tokens.id_token ?? '', post_logout_redirect_uri: `${APP}/` }),
      );
      assert.equal(logout.status, 302);
      assert.equal(spa.browser.cookies.get('KEYCLOAK_SESSION'), undefined);
      const [post] = await postsReceived(from, 1);
      assert.equal(held.length, 1, 'the logout answered while its POST was still unanswered');
      const token = await logoutTokenOf('bcl', post!, 'spa');
      assert.equal(token.sid, spa.sid);
      assert.equal(token.sub, spa.sub);
      assert.equal(token.aud, 'spa');
      assert.deepEqual(token.events, { [BACKCHANNEL_LOGOUT_EVENT]: {} });
    } finally {
      holdAnswers = false;
      held.splice(0).forEach((res) => res.writeHead(200).end());
    }
    await noMorePosts(from, 1);
    await assert.rejects(oidc.refreshTokenGrant(spa.config, spa.tokens.refresh_token ?? ''), sessionNotActive);
  });

  test('RP-initiated logout through an id_token_hint the browser does not hold: every client with a URL, front-channel ones too', async () => {
    const from = received.length;
    const spa = await signIn('bcl', 'spa');
    await signIn('bcl', 'front', spa.browser);
    await signIn('bcl', 'quiet', spa.browser);
    // another browser (no session cookie) confirms nothing: a valid hint logs its session out at once
    const logout = await fetch(oidc.buildEndSessionUrl(spa.config, { id_token_hint: spa.tokens.id_token ?? '' }));
    assert.equal(logout.status, 200);
    const posts = await postsReceived(from, 2);
    const tokens = await Promise.all(posts.map((post) => logoutTokenOf('bcl', post, String(decodeAud(post)))));
    assert.deepEqual(tokens.map((t) => t.aud).sort(), ['front', 'spa']);
    for (const token of tokens) {
      assert.equal(token.sid, spa.sid);
      assert.equal(token.sub, spa.sub);
    }
    await noMorePosts(from, 2);
  });

  test("the password grant's ID token (scope openid, as Keycloak answers it) as a hint from elsewhere: a token for that session", async () => {
    const from = received.length;
    const grant = (scope: string) =>
      fetch(`${idp.url}/realms/bcl/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', client_id: 'spa', username: 'alice', password: 'alice', scope }),
      }).then((response) => response.json() as Promise<Record<string, string>>);
    const withoutOpenid = await grant('profile');
    assert.equal(withoutOpenid.id_token, undefined, 'no ID token without openid');
    // its session ends here, so that the tests after this one find only their own
    assert.equal((await admin(`bcl/sessions/${String(decodeJwtPayload(withoutOpenid.access_token ?? '').sid)}`, 'DELETE')).status, 204);
    await postsReceived(from, 1);
    const tokens = await grant('openid');
    const jwks = (await (await fetch(`${idp.url}/realms/bcl/protocol/openid-connect/certs`)).json()) as JSONWebKeySet;
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token ?? '', createLocalJWKSet(jwks), {
      issuer: `${idp.url}/realms/bcl`,
      audience: 'spa',
    });
    const access = decodeJwtPayload(tokens.access_token ?? '');
    assert.equal(protectedHeader.typ, 'JWT');
    assert.equal(payload.typ, 'ID');
    assert.equal(payload.azp, 'spa');
    assert.equal(payload.sid, access.sid);
    assert.equal(payload.sub, access.sub);
    assert.equal(
      payload.at_hash,
      createHash('sha256')
        .update(tokens.access_token ?? '')
        .digest()
        .subarray(0, 16)
        .toString('base64url'),
    );
    assert.equal(payload.auth_time, undefined);
    assert.equal(payload.nonce, undefined);
    const logout = await fetch(
      `${idp.url}/realms/bcl/protocol/openid-connect/logout?${new URLSearchParams({ id_token_hint: tokens.id_token ?? '' })}`,
    );
    assert.equal(logout.status, 200);
    const [, post] = await postsReceived(from, 2);
    const token = await logoutTokenOf('bcl', post!, 'spa');
    assert.equal(token.sid, access.sid);
    await noMorePosts(from, 2);
  });

  test("admin API POST …/users/{id}/logout: a token for each of the user's sessions", async () => {
    const from = received.length;
    const one = await signIn('bcl', 'spa');
    const two = await signIn('bcl', 'spa');
    assert.notEqual(one.sid, two.sid);
    assert.equal((await admin(`bcl/users/${one.sub}/logout`, 'POST')).status, 204);
    const posts = await postsReceived(from, 2);
    const tokens = await Promise.all(posts.map((post) => logoutTokenOf('bcl', post, 'spa')));
    assert.deepEqual(tokens.map((t) => t.sid).sort(), [one.sid, two.sid].sort());
    for (const token of tokens) assert.equal(token.sub, one.sub);
    await noMorePosts(from, 2);
  });

  test('admin API DELETE …/sessions/{id}: a token for that session only; an unknown session is 404', async () => {
    const from = received.length;
    const ended = await signIn('bcl', 'spa');
    const kept = await signIn('bcl', 'spa');
    assert.equal((await admin(`bcl/sessions/${ended.sid}`, 'DELETE')).status, 204);
    const [post] = await postsReceived(from, 1);
    const token = await logoutTokenOf('bcl', post!, 'spa');
    assert.equal(token.sid, ended.sid);
    assert.equal(token.sub, ended.sub);
    await noMorePosts(from, 1);
    const again = await admin(`bcl/sessions/${ended.sid}`, 'DELETE');
    assert.equal(again.status, 404);
    assert.equal(((await again.json()) as { error: string }).error, 'Sesssion not found');
    // the other session is untouched
    assert.ok((await oidc.refreshTokenGrant(kept.config, kept.tokens.refresh_token ?? '')).access_token);
  });

  test('without backchannel.logout.session.required the token names the user only; revoke.offline.tokens adds revoke_offline_access', async () => {
    const from = received.length;
    const nosid = await signIn('bcl', 'nosid');
    assert.equal((await admin(`bcl/sessions/${nosid.sid}`, 'DELETE')).status, 204);
    const [post] = await postsReceived(from, 1);
    const token = await logoutTokenOf('bcl', post!, 'nosid');
    assert.equal('sid' in token, false);
    assert.equal(token.sub, nosid.sub);
    assert.deepEqual(token.events, { [BACKCHANNEL_LOGOUT_EVENT]: {}, revoke_offline_access: true });
    await noMorePosts(from, 1);
  });

  test('a session whose only client has no back-channel logout URL: no POST at all', async () => {
    const from = received.length;
    const quiet = await signIn('bcl', 'quiet');
    assert.equal((await admin(`bcl/sessions/${quiet.sid}`, 'DELETE')).status, 204);
    const logout = await fetch(oidc.buildEndSessionUrl(quiet.config, { id_token_hint: quiet.tokens.id_token ?? '' }));
    assert.equal(logout.status, 200);
    await noMorePosts(from, 0);
  });

  test('a session that expires is not logged out: Keycloak posts nothing, nor does the dev IdP', async () => {
    const from = received.length;
    const spa = await signIn('bcl-short', 'spa');
    await new Promise((resolve) => setTimeout(resolve, 3100));
    await assert.rejects(oidc.refreshTokenGrant(spa.config, spa.tokens.refresh_token ?? ''), sessionNotActive);
    await noMorePosts(from, 0);
  });

  test('a receiver that is down changes nothing: the logout answers and the session has ended', async () => {
    const spa = await signIn('bcl-down', 'spa');
    const logout = await spa.browser.fetch(oidc.buildEndSessionUrl(spa.config, { id_token_hint: spa.tokens.id_token ?? '' }));
    assert.equal(logout.status, 200);
    await assert.rejects(oidc.refreshTokenGrant(spa.config, spa.tokens.refresh_token ?? ''), sessionNotActive);
  });
});

/** A JWT's claims, read without verifying them. */
function decodeJwtPayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The `aud` of a POST's logout token, read before verifying it (to verify each against its own audience). */
function decodeAud(post: Received): unknown {
  const payload = (post.form.get('logout_token') ?? '').split('.')[1] ?? '';
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud?: unknown }).aud;
}
