// Security round four: the demo API takes only an access token of the shell's client — one that
// expires, `typ: "Bearer"`, `azp` gatehouse-shell — over real HTTP. Two providers: the dev provider (started here),
// whose ID token for a client named like the API has that API as its `aud`; and a stub realm this test signs for
// (its keys published over HTTP at `{issuer}/protocol/openid-connect/certs`, as a realm does), for the tokens no
// provider issues: without `exp`, without `typ`, DPoP-bound presented as Bearer, of another client.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWTPayload } from 'jose';

import { startDemoApi } from '../src/index.js';
import type { DemoApi } from '../src/index.js';
import { APP, bearerCall as call, dpopCall, dpopKey, refusal, signIn, startProvider } from './support/provider.js';
import type { DpopKey, Provider } from './support/provider.js';

const REALM = 'demo-api-typ-test';

describe('a real provider: the ID token of a client called like the API', () => {
  let provider: Provider;
  let api: DemoApi;

  before(async () => {
    provider = await startProvider();
    // Another client of the realm whose id is the API's audience: its ID tokens say `aud: "profile-api"`.
    const named = {
      clientId: 'profile-api',
      publicClient: true,
      standardFlowEnabled: true,
      redirectUris: [`${APP}/*`],
      webOrigins: [APP],
      attributes: { 'pkce.code.challenge.method': 'S256' },
    };
    await provider.createRealm(REALM, (rep) => ({ ...rep, clients: [...(rep.clients ?? []), named] }));
    api = await startDemoApi({ port: 0, issuer: `${provider.base}/realms/${REALM}`, quiet: true });
  });

  after(async () => {
    await api?.close();
    await provider?.close();
  });

  test('its ID token (typ ID, aud profile-api, signed by the realm) is refused at /profile: not an access token', async () => {
    const { id_token: idToken = '', access_token: accessToken } = await signIn(provider.base, REALM, {
      clientId: 'profile-api',
      scope: 'openid',
    });
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
  /** the key the stub's tokens are bound to (`cnf.jkt`), as the provider binds the shell's to its DPoP key */
  let key: DpopKey;

  before(async () => {
    key = await dpopKey();
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

  /** An access token as Keycloak writes it for the shell, downscoped to profile-api and bound to `key`, with `claims` over it. */
  async function token(claims: JWTPayload, { exp = true } = {}): Promise<string> {
    const body: JWTPayload = {
      typ: 'Bearer',
      azp: 'gatehouse-shell',
      aud: 'profile-api',
      sub: 'alice-id',
      preferred_username: 'alice',
      cnf: { jkt: key.jkt },
    };
    for (const [key, value] of Object.entries(claims)) if (value === undefined) delete body[key];
    const jwt = new SignJWT({ ...body, ...Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)) })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'k1' })
      .setIssuer(issuer)
      .setIssuedAt();
    if (exp) jwt.setExpirationTime('5m');
    return jwt.sign(keys.privateKey);
  }

  test('the access token of the shell for profile-api is answered (the stub signs what a realm signs)', async () => {
    const response = await dpopCall(`${api.url}/profile`, await token({}), key);
    assert.equal(response.status, 200, await response.clone().text());
  });

  test('a DPoP-bound token typed "DPoP" is answered as one typed "Bearer"; "DPoP" without cnf.jkt is refused', async () => {
    const response = await dpopCall(`${api.url}/profile`, await token({ typ: 'DPoP' }), key);
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(
      await refusal(await dpopCall(`${api.url}/profile`, await token({ typ: 'DPoP', cnf: undefined }), key)),
      'this token says typ "DPoP" but names no key (no cnf.jkt)',
    );
  });

  test('a token without exp is refused: it would be good forever', async () => {
    assert.equal(
      await refusal(await dpopCall(`${api.url}/profile`, await token({}, { exp: false }), key)),
      'this token has no expiry (exp); only tokens that expire are accepted',
    );
  });

  for (const typ of ['ID', 'Refresh', undefined]) {
    test(`a token with typ ${String(typ)} whose aud names the API is refused: not an access token`, async () => {
      assert.equal(
        await refusal(await dpopCall(`${api.url}/profile`, await token({ typ }), key)),
        `this is not an access token (typ ${JSON.stringify(typ ?? null)}, not "Bearer"): profile-api accepts no ID or refresh token`,
      );
    });
  }

  test('a DPoP-bound token presented as Bearer is refused (RFC 9449 7.2), a cnf.jkt that is no thumbprint too', async () => {
    for (const claims of [{}, { typ: 'DPoP' }]) {
      assert.equal(
        await refusal(await call(`${api.url}/profile`, await token(claims))),
        'this token is bound to a DPoP key (cnf.jkt): send it as Authorization: DPoP with a DPoP proof, not as a bearer token',
      );
    }
    for (const cnf of [{ jkt: 42 }, { jkt: '' }]) {
      assert.equal(
        await refusal(await dpopCall(`${api.url}/profile`, await token({ cnf }), key)),
        "this token's cnf.jkt is not a key thumbprint",
      );
    }
  });

  test("another client's token, or one that names no client, is refused: azp must be the shell's", async () => {
    assert.equal(
      await refusal(await dpopCall(`${api.url}/profile`, await token({ azp: 'reports' }), key)),
      'this token was issued to the client reports, not to gatehouse-shell',
    );
    assert.equal(
      await refusal(await dpopCall(`${api.url}/profile`, await token({ azp: undefined }), key)),
      'this token was issued to no client (no azp), not to gatehouse-shell',
    );
  });
});
