import { readFileSync } from 'node:fs';
import type { RealmRepresentation } from './realm/representation.js';

/** The demo realm file: a test realm takes its client scopes from it, so tokens are shaped as in production. */
const REALM_FILE = new URL('../../deploy/keycloak/gatehouse-realm.json', import.meta.url);

/** The demo realm's client scopes and those of its SPA client (decisions/0055: the API audiences, role-audiences). */
function demoClientScopes(): Pick<RealmRepresentation, 'clientScopes' | 'defaultDefaultClientScopes' | 'defaultOptionalClientScopes'> & {
  client: { defaultClientScopes?: string[]; optionalClientScopes?: string[] };
} {
  const realm = JSON.parse(readFileSync(REALM_FILE, 'utf8')) as RealmRepresentation & {
    clients?: { clientId?: string; defaultClientScopes?: string[]; optionalClientScopes?: string[] }[];
  };
  const spa = realm.clients?.find((client) => client.clientId === 'gatehouse-shell') ?? {};
  return {
    clientScopes: realm.clientScopes,
    defaultDefaultClientScopes: realm.defaultDefaultClientScopes,
    defaultOptionalClientScopes: realm.defaultOptionalClientScopes,
    client: { defaultClientScopes: spa.defaultClientScopes, optionalClientScopes: spa.optionalClientScopes },
  };
}

/** What a test chooses about its realm; everything else is the demo realm's shape. */
export interface TestRealmOptions {
  /** the public SPA client (default `gatehouse-shell`, as in the demo realm) */
  clientId?: string;
  /** the origin of the test's page: its redirect URIs are `${origin}/*`, its web origins `+` */
  origin?: string;
  /** seconds (default 300) */
  accessTokenLifespan?: number;
  /** Keycloak's "Revoke Refresh Token": each refresh token can be used once (default false) */
  revokeRefreshToken?: boolean;
}

/**
 * A small realm shaped like the demo one — realm roles `user`, `admin`, client role `reports/viewer`, a
 * public PKCE client and the user alice/alice with all three — under a name of the test's choosing, so
 * each test can import its own through `startDevIdp({ realms })` or the admin API.
 *
 * @example
 * await admin.realms.create(testRealm('t-1', { origin: app.origin, accessTokenLifespan: 8 }));
 */
export function testRealm(name: string, options: TestRealmOptions = {}): RealmRepresentation {
  const { clientId = 'gatehouse-shell', origin = 'http://localhost:3000', accessTokenLifespan = 300, revokeRefreshToken = false } = options;
  const { client: scopesOfTheClient, ...scopes } = demoClientScopes();
  return {
    realm: name,
    ...scopes,
    enabled: true,
    accessTokenLifespan,
    ...(revokeRefreshToken ? { revokeRefreshToken } : {}),
    roles: { realm: [{ name: 'user' }, { name: 'admin' }], client: { reports: [{ name: 'viewer' }] } },
    clients: [
      {
        clientId,
        enabled: true,
        publicClient: true,
        standardFlowEnabled: true,
        redirectUris: [`${origin}/*`],
        webOrigins: ['+'],
        attributes: { 'pkce.code.challenge.method': 'S256', 'post.logout.redirect.uris': '+' },
        ...scopesOfTheClient,
      },
      { clientId: 'reports', enabled: true, bearerOnly: true },
    ],
    users: [
      {
        username: 'alice',
        enabled: true,
        email: 'alice@example.com',
        emailVerified: true,
        firstName: 'Alice',
        lastName: 'Anders',
        credentials: [{ type: 'password', value: 'alice' }],
        realmRoles: [`default-roles-${name}`, 'user', 'admin'],
        clientRoles: { reports: ['viewer'] },
      },
    ],
  };
}
