// Security round four (issue 47, item 5): the demo API takes only an access token of the shell's client — one that
// expires, `typ: "Bearer"`, `azp` gatehouse-shell — over real HTTP. Two providers: the dev provider (started here),
// whose ID token for a client named like the API has that API as its `aud`; and a stub realm this test signs for
// (its keys published over HTTP at `{issuer}/protocol/openid-connect/certs`, as a realm does), for the tokens no
// provider issues: without `exp`, without `typ`, DPoP-bound, of another client.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import KcAdminClient from '@keycloak/keycloak-admin-client';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWTPayload } from 'jose';

import { startDevIdp } from '@gatehouse/dev-idp';
import type { RealmRepresentation } from '@gatehouse/dev-idp';
import { authorizationUrl, FormBrowser } from '@gatehouse/dev-idp/testing';
import { startDemoApi } from '../src/index.js';
import type { DemoApi } from '../src/index.js';

const REALM_FILE = fileURLToPath(new URL('../../deploy/keycloak/gatehouse-realm.json', import.meta.url));
const APP = 'http://localhost:3000';
const REALM = 'demo-api-typ-test';

/** A 401's reason (the body; `WWW-Authenticate` carries the same). */
async function refusal(response: Response): Promise<string> {
  assert.equal(response.status, 401, 'the API refuses the token');
  const reason = await response.text();
  assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="profile-api", error="invalid_token"/);
  return reason;
}

const call = (url: string, token: string) => fetch(url, { headers: { authorization: `Bearer ${token}` } });

describe('a real provider: the ID token of a client called like the API', () => {
  let base: string;
  let closeIdp = async () => {};
  let admin: KcAdminClient;
  let api: DemoApi;

  before(async () => {
    if (process.env.DEMO_API_IDP_URL) {
      base = process.env.DEMO_API_IDP_URL.replace(/\/$/, '');
    } else {
      const idp = await startDevIdp({ quiet: true });
      base = idp.url;
      closeIdp = () => idp.close();
    }
    admin = new KcAdminClient({ baseUrl: base, realmName: 'master' });
    await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: 'admin', password: 'admin' });
    const rep = JSON.parse(
      readFileSync(REALM_FILE, 'utf8').replaceAll('default-roles-gatehouse', `default-roles-${REALM}`),
    ) as RealmRepresentation;
    // Another client of the realm whose id is the API's audience: its ID tokens say `aud: "profile-api"`.
    const named = {
      clientId: 'profile-api',
      publicClient: true,
      standardFlowEnabled: true,
      redirectUris: [`${APP}/*`],
      webOrigins: [APP],
      attributes: { 'pkce.code.challenge.method': 'S256' },
    };
    const clients = [...((rep as { clients?: unknown[] }).clients ?? []), named];
    await admin.realms.del({ realm: REALM }).catch(() => {});
    await admin.realms.create({ ...rep, realm: REALM, clients } as Parameters<KcAdminClient['realms']['create']>[0]);
    api = await startDemoApi({ port: 0, issuer: `${base}/realms/${REALM}`, quiet: true });
  });

  after(async () => {
    await api?.close();
    await admin?.realms.del({ realm: REALM }).catch(() => {});
    await closeIdp();
  });

  test('its ID token (typ ID, aud profile-api, signed by the realm) is refused at /profile: not an access token', async () => {
    const { url, verifier } = authorizationUrl(base, REALM, { client_id: 'profile-api', scope: 'openid' });
    const browser = new FormBrowser();
    const page = await browser.fetch(url);
    const { url: back } = await browser.signIn(new URL(url), await page.text(), 'alice', 'alice', (u) => u.origin === APP);
    const code = new URLSearchParams(back.hash.slice(1)).get('code') ?? '';
    const response = await fetch(`${base}/realms/${REALM}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: 'profile-api',
        redirect_uri: `${APP}/`,
        code,
        code_verifier: verifier,
      }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const { id_token: idToken, access_token: accessToken } = (await response.json()) as { id_token: string; access_token: string };
    assert.deepEqual(
      { typ: decodeJwt(idToken).typ, aud: decodeJwt(idToken).aud },
      { typ: 'ID', aud: 'profile-api' },
      'the ID token names the API as its audience',
    );
    assert.equal(
      await refusal(await call(`${api.url}/profile`, idToken)),
      'this is not an access token (typ "ID", not "Bearer"): profile-api accepts no ID or refresh token',
    );
    // The same client's access token is not the shell's either (and names no API of its own)
    assert.equal(decodeJwt(accessToken).azp, 'profile-api');
    assert.equal(
      await refusal(await call(`${api.url}/profile`, accessToken)),
      'this token was issued to the client profile-api, not to gatehouse-shell',
    );
  });
});

describe('a stub realm signing the tokens no provider issues', () => {
  let keys: Awaited<ReturnType<typeof generateKeyPair>>;
  let server: ReturnType<typeof createServer>;
  let issuer: string;
  let api: DemoApi;

  before(async () => {
    keys = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer((req, res) => {
      if (req.url === '/realms/stub/protocol/openid-connect/certs') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ keys: [jwk] }));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/stub`;
    api = await startDemoApi({ port: 0, issuer, quiet: true });
  });

  after(async () => {
    await api?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** An access token as Keycloak writes it for the shell, downscoped to profile-api, with `claims` over it. */
  async function token(claims: JWTPayload, { exp = true } = {}): Promise<string> {
    const body: JWTPayload = { typ: 'Bearer', azp: 'gatehouse-shell', aud: 'profile-api', sub: 'alice-id', preferred_username: 'alice' };
    for (const [key, value] of Object.entries(claims)) if (value === undefined) delete body[key];
    const jwt = new SignJWT({ ...body, ...Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)) })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'k1' })
      .setIssuer(issuer)
      .setIssuedAt();
    if (exp) jwt.setExpirationTime('5m');
    return jwt.sign(keys.privateKey);
  }

  test('the access token of the shell for profile-api is answered (the stub signs what a realm signs)', async () => {
    const response = await call(`${api.url}/profile`, await token({}));
    assert.equal(response.status, 200, await response.clone().text());
  });

  test('a token without exp is refused: it would be good forever', async () => {
    assert.equal(
      await refusal(await call(`${api.url}/profile`, await token({}, { exp: false }))),
      'this token has no expiry (exp); only tokens that expire are accepted',
    );
  });

  for (const typ of ['ID', 'Refresh', undefined]) {
    test(`a token with typ ${String(typ)} whose aud names the API is refused: not an access token`, async () => {
      assert.equal(
        await refusal(await call(`${api.url}/profile`, await token({ typ }))),
        `this is not an access token (typ ${JSON.stringify(typ ?? null)}, not "Bearer"): profile-api accepts no ID or refresh token`,
      );
    });
  }

  test('a DPoP-bound token presented as Bearer is refused (this API checks no proof)', async () => {
    for (const claims of [{ cnf: { jkt: 'abc' } }, { typ: 'DPoP' }]) {
      assert.equal(
        await refusal(await call(`${api.url}/profile`, await token(claims))),
        'this token is bound to a DPoP key; profile-api takes bearer tokens only and checks no DPoP proof',
      );
    }
  });

  test("another client's token, or one that names no client, is refused: azp must be the shell's", async () => {
    assert.equal(
      await refusal(await call(`${api.url}/profile`, await token({ azp: 'reports' }))),
      'this token was issued to the client reports, not to gatehouse-shell',
    );
    assert.equal(
      await refusal(await call(`${api.url}/profile`, await token({ azp: undefined }))),
      'this token was issued to no client (no azp), not to gatehouse-shell',
    );
  });
});
