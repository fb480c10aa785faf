import { buildRealm } from './buildRealm.js';
import type { Realm } from './model.js';

/**
 * Keycloak's `master` realm, reduced to what the admin API needs: the `admin-cli` client
 * (password grant) and one administrator. Its tokens live an hour (Keycloak: 60 s) so a test
 * run never has to re-authenticate its admin client.
 */
export function masterRealm(adminUser: string, adminPassword: string): Realm {
  return buildRealm('master realm', {
    realm: 'master',
    displayName: 'Keycloak',
    accessTokenLifespan: 3600,
    roles: { realm: [{ name: 'admin', description: '${role_admin}' }, { name: 'create-realm' }] },
    users: [
      {
        username: adminUser,
        enabled: true,
        credentials: [{ type: 'password', value: adminPassword }],
        realmRoles: ['admin', 'create-realm', 'default-roles-master'],
      },
    ],
  });
}
