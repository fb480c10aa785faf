import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createLocalJWKSet, decodeProtectedHeader, exportJWK, jwtVerify } from 'jose';

import { createRealmKeys } from '../src/tokens/keys.js';
import { BACKCHANNEL_LOGOUT_EVENT, signLogoutToken } from '../src/tokens/logoutToken.js';

const issuer = 'http://localhost:8080/realms/gatehouse';

test("a logout token has Keycloak 26.7.3's header and claims, in its order, and verifies against the realm's key", async () => {
  const keys = await createRealmKeys();
  const token = await signLogoutToken({ issuer, keys }, { clientId: 'gatehouse-shell', sub: 'user-1', sid: 'session-1' }, 1_000_000);

  assert.deepEqual(decodeProtectedHeader(token), { alg: 'RS256', typ: 'logout+jwt', kid: keys.kid });
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: keys.kid, alg: 'RS256' }] });
  const { payload } = await jwtVerify(token, jwks, {
    issuer,
    audience: 'gatehouse-shell',
    typ: 'logout+jwt',
    currentDate: new Date(1_000_010 * 1000),
  });
  assert.deepEqual(Object.keys(payload), ['exp', 'iat', 'jti', 'iss', 'aud', 'sub', 'typ', 'sid', 'events']);
  assert.equal(payload.exp, 1_000_120);
  assert.equal(payload.iat, 1_000_000);
  assert.equal(payload.aud, 'gatehouse-shell');
  assert.equal(payload.sub, 'user-1');
  assert.equal(payload.sid, 'session-1');
  assert.equal(payload.typ, 'Logout');
  assert.deepEqual(payload.events, { [BACKCHANNEL_LOGOUT_EVENT]: {} });
  assert.equal('nonce' in payload, false);
  assert.equal('azp' in payload, false);
});

test('each logout token has its own jti', async () => {
  const keys = await createRealmKeys();
  const fields = { clientId: 'gatehouse-shell', sub: 'user-1', sid: 'session-1' };
  const [a, b] = await Promise.all([signLogoutToken({ issuer, keys }, fields), signLogoutToken({ issuer, keys }, fields)]);
  const jti = (t: string) => JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()).jti as string;
  assert.notEqual(jti(a), jti(b));
});
