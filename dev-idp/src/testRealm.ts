import type { RealmRepresentation } from './realm/representation.js';

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
  return {
    realm: name,
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
