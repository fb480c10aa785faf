import type { Client, Role } from './model.js';

/** Realm roles Keycloak creates in every realm, and its `default-roles-<realm>` composite. */
export function builtinRealmRoles(realm: string): Role[] {
  return [
    { id: crypto.randomUUID(), name: 'offline_access', description: '${role_offline-access}' },
    { id: crypto.randomUUID(), name: 'uma_authorization', description: '${role_uma_authorization}' },
    {
      id: crypto.randomUUID(),
      name: `default-roles-${realm}`,
      description: '${role_default-roles}',
      composites: { realm: ['offline_access', 'uma_authorization'], client: { account: ['view-profile', 'manage-account'] } },
    },
  ];
}

/** Clients Keycloak creates in every realm that matter here: `account` (its roles) and `admin-cli`. */
export function builtinClients(): Omit<Client, 'defaultClientScopes' | 'optionalClientScopes'>[] {
  const base = {
    enabled: true,
    bearerOnly: false,
    standardFlowEnabled: false,
    directAccessGrantsEnabled: false,
    redirectUris: [],
    webOrigins: [],
    postLogoutRedirectUris: [],
    acrLoaMap: {},
    dpopBoundAccessTokens: false,
    frontchannelLogout: false,
    backchannelLogoutSessionRequired: true,
    backchannelLogoutRevokeOfflineTokens: false,
  };
  return [
    {
      ...base,
      id: crypto.randomUUID(),
      clientId: 'account',
      name: '${client_account}',
      publicClient: true,
      roles: [
        { id: crypto.randomUUID(), name: 'view-profile' },
        { id: crypto.randomUUID(), name: 'manage-account', composites: { realm: [], client: { account: ['manage-account-links'] } } },
        { id: crypto.randomUUID(), name: 'manage-account-links' },
      ],
    },
    {
      ...base,
      id: crypto.randomUUID(),
      clientId: 'admin-cli',
      name: '${client_admin-cli}',
      publicClient: true,
      directAccessGrantsEnabled: true,
      roles: [],
    },
  ];
}
