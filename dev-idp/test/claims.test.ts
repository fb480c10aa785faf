import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { accessTokenClaims, accountRepresentation, grantedScope, userinfoClaims } from '../src/tokens/claims.js';
import { realmFromRepresentation } from '../src/realm/loadRealm.js';

const { realm } = realmFromRepresentation('test.json', {
  realm: 'acme',
  roles: { realm: [{ name: 'user' }], client: { api: [{ name: 'reader' }] } },
  clients: [
    { clientId: 'spa', publicClient: true, redirectUris: ['http://localhost:3000/*'], webOrigins: ['+'] },
    { clientId: 'api', bearerOnly: true },
  ],
  users: [
    {
      username: 'Carol',
      enabled: true,
      firstName: 'Carol',
      lastName: 'Chen',
      email: 'Carol@Example.com',
      realmRoles: ['default-roles-acme', 'user'],
      clientRoles: { api: ['reader'] },
    },
    { username: 'dan', enabled: true },
  ],
});
const spa = realm.clients.find((c) => c.clientId === 'spa')!;

describe('claims', () => {
  test("access token: Keycloak's shape", () => {
    const user = realm.users[0]!;
    const claims = accessTokenClaims({ realm, user, client: spa, sid: 's1', scope: grantedScope(realm, spa, 'openid') });
    assert.equal(claims.typ, 'Bearer');
    assert.equal(claims.azp, 'spa');
    assert.equal(claims.sid, 's1');
    assert.equal(claims.scope, 'openid profile email');
    assert.deepEqual(claims['allowed-origins'], ['http://localhost:3000']);
    assert.deepEqual(
      new Set((claims.realm_access as { roles: string[] }).roles),
      new Set(['default-roles-acme', 'offline_access', 'uma_authorization', 'user']),
    );
    assert.deepEqual((claims.resource_access as Record<string, { roles: string[] }>).api, { roles: ['reader'] });
    assert.deepEqual(new Set(claims.aud as string[]), new Set(['account', 'api']));
    assert.equal(claims.preferred_username, 'carol');
    assert.equal(claims.email, 'carol@example.com');
    assert.equal(claims.name, 'Carol Chen');
    assert.equal(claims.given_name, 'Carol');
    assert.equal(claims.family_name, 'Chen');
  });

  test('absent profile values are left out, not empty', () => {
    const user = realm.users[1]!;
    const claims = userinfoClaims(user);
    assert.deepEqual(claims, { sub: user.id, email_verified: false, preferred_username: 'dan' });
    const access = accessTokenClaims({ realm, user, client: spa, sid: 's', scope: 'openid' });
    assert.equal(access.aud, undefined);
    assert.deepEqual(access.resource_access, {});
  });

  test('account representation', () => {
    const user = realm.users[0]!;
    assert.deepEqual(Object.fromEntries(Object.entries(accountRepresentation(user)).filter(([k]) => k !== 'userProfileMetadata')), {
      id: user.id,
      username: 'carol',
      firstName: 'Carol',
      lastName: 'Chen',
      email: 'carol@example.com',
      emailVerified: false,
    });
  });
});
