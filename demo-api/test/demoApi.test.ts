import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { decodeJwt } from 'jose';

import { startDemoApi } from '../src/index.js';
import type { DemoApi } from '../src/index.js';
import { ALGS, dpopCall, dpopKey, preflight, refusal, signIn, startProvider, tokenFor as refreshFor } from './support/provider.js';
import type { DpopKey, Provider, TokenResponse } from './support/provider.js';

// The demo API over real HTTP, with real tokens of a real identity provider: the dev IdP started here, or the one
// DEMO_API_IDP_URL names (a Keycloak 26 from `npm run keycloak`, admin/admin), with the demo realm file imported
// under test names through the admin API. Tokens come as the shell gets them (decisions/0055): a sign-in
// asking for every API's scope with a DPoP proof, then a refresh downscoped to one API, each bound to the key.

const APP = 'http://localhost:3000';
const REALM = 'demo-api-test';
/** the same realm with 1 s access tokens, for an expired one */
const SHORT_REALM = 'demo-api-short';

let provider: Provider;
let base: string;
let api: DemoApi;
let shortApi: DemoApi;
let key: DpopKey;

before(async () => {
  provider = await startProvider();
  base = provider.base;
  await provider.createRealm(REALM);
  await provider.createRealm(SHORT_REALM, (rep) => ({ ...rep, accessTokenLifespan: 1 }));
  key = await dpopKey();
  const origins = [APP, 'http://localhost:3001', 'http://localhost:3002', 'http://localhost:3003'];
  api = await startDemoApi({ port: 0, issuer: `${base}/realms/${REALM}`, origins, quiet: true });
  shortApi = await startDemoApi({ port: 0, issuer: `${base}/realms/${SHORT_REALM}`, origins, quiet: true });
});

after(async () => {
  await api?.close();
  await shortApi?.close();
  await provider?.close();
});

/** Signs alice in as the shell does (all API scopes, a DPoP proof of `key`) and returns the token response. */
const signInBound = (realm = REALM): Promise<TokenResponse> => signIn(base, realm, { key });

/** The downscoped refresh: an access token for one API's scope, bound to `key`. */
const tokenFor = (scope: string, refreshToken: string, realm = REALM) => refreshFor(base, realm, scope, refreshToken, key);

/** `GET url` with a DPoP-bound token and a fresh proof; without a token, no Authorization at all. */
const call = (url: string, token?: string, headers: Record<string, string> = {}) =>
  token ? dpopCall(url, token, key) : fetch(url, { headers });

/** A port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('demo API', () => {
  let session: TokenResponse;
  before(async () => {
    session = await signInBound();
  });

  for (const [name, audience] of [
    ['profile', 'profile-api'],
    ['admin', 'admin-api'],
    ['reports', 'reports-api'],
  ] as const) {
    test(`/${name} answers a token downscoped to ${audience} with what the token says`, async () => {
      const token = await tokenFor(audience, session.refresh_token);
      assert.equal((decodeJwt(token).cnf as { jkt?: string } | undefined)?.jkt, key.jkt, 'the token is bound to the DPoP key');
      const response = await call(`${api.url}/${name}/anything/below`, token);
      assert.equal(response.status, 200, await response.clone().text());
      const body = (await response.json()) as { api: string; audience: string; aud: string[]; user: string; scope: string };
      assert.deepEqual(
        { api: body.api, audience: body.audience, aud: body.aud, user: body.user },
        { api: name, audience, aud: [audience], user: 'alice' },
      );
      assert.ok(body.scope.split(' ').includes(audience), body.scope);
    });
  }

  test('no token: 401 and the DPoP challenge without an error code (RFC 6750 3.1, RFC 9449 7.1)', async () => {
    const response = await call(`${api.url}/profile`);
    assert.equal(response.status, 401);
    assert.equal(await response.text(), 'no access token: send Authorization: DPoP <token> with a DPoP proof');
    assert.equal(response.headers.get('www-authenticate'), `DPoP realm="profile-api", algs="${ALGS}"`);
  });

  test("another API's token: 401 naming both audiences", async () => {
    const token = await tokenFor('admin-api', session.refresh_token);
    assert.equal(await refusal(await call(`${api.url}/profile`, token)), 'this token is for admin-api, not profile-api');
  });

  test("the shell's broad token (every API's audience and more): 401, a token for profile-api alone is wanted", async () => {
    const aud = decodeJwt(session.access_token).aud as string[];
    assert.ok(aud.includes('profile-api') && aud.length > 1, `the broad token's aud: ${JSON.stringify(aud)}`);
    const others = aud.filter((a) => a !== 'profile-api').join(', ');
    assert.equal(
      await refusal(await call(`${api.url}/profile`, session.access_token)),
      `this token is also for ${others}; profile-api accepts only a token for profile-api alone`,
    );
  });

  test('an expired token: 401 "token expired"', async () => {
    const short = await signInBound(SHORT_REALM);
    const token = await tokenFor('profile-api', short.refresh_token, SHORT_REALM);
    // The token lives 1 s: wait until its `exp` has passed (jose allows no clock skew by default).
    const exp = Number(decodeJwt(token).exp) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp - Date.now()) + 1100));
    assert.equal(await refusal(await call(`${shortApi.url}/profile`, token)), 'token expired');
  });

  test('a token whose signature was tampered with: 401 "signature does not verify"', async () => {
    const token = await tokenFor('profile-api', session.refresh_token);
    const [header, payload, signature = ''] = token.split('.');
    const middle = Math.floor(signature.length / 2);
    const flipped = `${signature.slice(0, middle)}${signature[middle] === 'A' ? 'B' : 'A'}${signature.slice(middle + 1)}`;
    assert.equal(await refusal(await call(`${api.url}/profile`, `${header}.${payload}.${flipped}`)), 'signature does not verify');
  });

  test('a token with edited claims (the signature no longer matches them): 401', async () => {
    const token = await tokenFor('profile-api', session.refresh_token);
    const [header, payload = '', signature] = token.split('.');
    const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), preferred_username: 'mallory' };
    const edited = Buffer.from(JSON.stringify(claims)).toString('base64url');
    assert.equal(await refusal(await call(`${api.url}/profile`, `${header}.${edited}.${signature}`)), 'signature does not verify');
  });

  test('a token of another realm: 401, signed with a key this realm does not publish', async () => {
    const short = await signInBound(SHORT_REALM);
    const token = await tokenFor('profile-api', short.refresh_token, SHORT_REALM);
    assert.equal(
      await refusal(await call(`${api.url}/profile`, token)),
      `signed with a key that ${base}/realms/${REALM}/protocol/openid-connect/certs does not publish`,
    );
  });

  test('CORS: a preflight from a remote origin for GET with Authorization and DPoP is allowed', async () => {
    const response = await preflight(`${api.url}/profile`);
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), 'http://localhost:3001');
    assert.equal(response.headers.get('access-control-allow-methods'), 'GET');
    assert.equal(response.headers.get('access-control-allow-headers'), 'Authorization, DPoP');
    assert.equal(response.headers.get('vary'), 'Origin');
  });

  test('CORS: a preflight from another origin, or for another method or header, is refused', async () => {
    for (const [origin, method, headers, reason] of [
      ['http://evil.example', 'GET', 'authorization', 'origin http://evil.example may not call the Gatehouse demo API'],
      ['http://localhost:3001', 'DELETE', 'authorization', 'method DELETE is not allowed (GET only)'],
      [
        'http://localhost:3001',
        'GET',
        'authorization, dpop, x-debug',
        'request headers x-debug are not allowed (Authorization and DPoP only)',
      ],
      ['http://localhost:3001', 'GET', 'dpop-nonce', 'request headers dpop-nonce are not allowed (Authorization and DPoP only)'],
    ] as const) {
      const response = await preflight(`${api.url}/profile`, { origin, method, headers });
      assert.equal(response.status, 403, origin);
      assert.equal(response.headers.get('access-control-allow-origin'), null);
      assert.equal(await response.text(), `CORS preflight refused: ${reason}`);
    }
  });

  test("CORS: an allowed origin can read the answers, the 401's reason included; another origin gets no CORS header", async () => {
    const allowed = await call(`${api.url}/profile`, undefined, { origin: 'http://localhost:3000' });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:3000');
    assert.equal(allowed.headers.get('access-control-expose-headers'), 'WWW-Authenticate');
    assert.equal(allowed.headers.get('vary'), 'Origin');
    const other = await call(`${api.url}/profile`, undefined, { origin: 'http://evil.example' });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  test('a path that is no API: 404 listing the APIs', async () => {
    const response = await call(`${api.url}/profiles`);
    assert.equal(response.status, 404);
    assert.equal(await response.text(), 'no API at /profiles; the Gatehouse demo API answers /profile, /admin, /reports');
  });

  test('the identity provider out of reach: 503 with the reason, and the API keeps answering', async () => {
    const token = await tokenFor('profile-api', session.refresh_token);
    const port = await closedPort();
    const unreachable = await startDemoApi({ port: 0, issuer: `http://localhost:${port}/realms/gatehouse`, quiet: true });
    try {
      const response = await call(`${unreachable.url}/profile`, token);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '5');
      assert.match(
        await response.text(),
        new RegExp(
          `^the identity provider is not reachable \\(http://localhost:${port}/realms/gatehouse/protocol/openid-connect/certs: ECONNREFUSED\\); start it, or try again once it is back$`,
        ),
      );
      assert.equal((await call(`${unreachable.url}/health`)).status, 200);
    } finally {
      await unreachable.close();
    }
  });
});
