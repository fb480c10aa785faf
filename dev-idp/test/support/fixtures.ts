import type { RealmRepresentation } from '../../src/index.js';

/** A small realm like the demo one, under a name of the test's choosing. */
export function demoRealm(name: string, origin = 'http://localhost:3000'): RealmRepresentation {
  return {
    realm: name,
    enabled: true,
    accessTokenLifespan: 300,
    roles: { realm: [{ name: 'user' }, { name: 'admin' }], client: { reports: [{ name: 'viewer' }] } },
    clients: [
      {
        clientId: 'spa',
        publicClient: true,
        standardFlowEnabled: true,
        redirectUris: [`${origin}/*`],
        webOrigins: ['+'],
        attributes: { 'pkce.code.challenge.method': 'S256', 'post.logout.redirect.uris': '+' },
      },
      { clientId: 'reports', bearerOnly: true },
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
