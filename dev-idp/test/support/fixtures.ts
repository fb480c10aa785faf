import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { testRealm } from '../../src/index.js';
import type { RealmRepresentation } from '../../src/index.js';

/** A small realm like the demo one, under a name of the test's choosing, with client `spa`. */
export function demoRealm(name: string, origin = 'http://localhost:3000'): RealmRepresentation {
  return testRealm(name, { clientId: 'spa', origin });
}

/** The app both providers redirect to; nothing listens there (redirects are read, not followed). */
export const APP = 'http://localhost:3000';
export const CLIENT = 'spa';

/** The demo realm's shape (testRealm) with client `spa` for APP, a client `wild` allowed `${APP}/app/*`, and a second user, bob, to compare what happens across users. */
export function twoUserRealm(name: string): RealmRepresentation {
  const rep = testRealm(name, { clientId: CLIENT, origin: APP });
  rep.clients?.push({
    clientId: 'wild',
    enabled: true,
    publicClient: true,
    standardFlowEnabled: true,
    redirectUris: [`${APP}/app/*`],
    webOrigins: ['+'],
    attributes: { 'pkce.code.challenge.method': 'S256' },
  });
  rep.users?.push({
    username: 'bob',
    enabled: true,
    email: 'bob@example.com',
    emailVerified: true,
    firstName: 'Bob',
    lastName: 'Brown',
    credentials: [{ type: 'password', value: 'bob' }],
    realmRoles: [`default-roles-${name}`, 'user'],
  });
  return rep;
}

/** The demo realm file's API scopes (decisions/0055), each an optional client scope of the shell with an audience mapper. */
export const API_SCOPES = ['profile-api', 'admin-api', 'reports-api'] as const;

/**
 * twoUserRealm with the demo realm file's client scopes and the shell client's default and optional client scopes
 * on client `spa`: the realm in which the shell signs in with `openid role-audiences <API scopes>` and refreshes
 * down to one API (decisions/0055).
 */
export function scopedRealm(name: string): RealmRepresentation {
  const file = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../../deploy/keycloak/gatehouse-realm.json', import.meta.url)), 'utf8'),
  ) as RealmRepresentation;
  const shell = file.clients?.find((c) => c.clientId === 'gatehouse-shell');
  const rep = twoUserRealm(name);
  rep.clientScopes = file.clientScopes;
  rep.defaultDefaultClientScopes = file.defaultDefaultClientScopes;
  rep.defaultOptionalClientScopes = file.defaultOptionalClientScopes;
  for (const client of rep.clients ?? []) {
    if (client.clientId !== CLIENT) continue;
    client.defaultClientScopes = shell?.defaultClientScopes;
    client.optionalClientScopes = shell?.optionalClientScopes;
  }
  return rep;
}
