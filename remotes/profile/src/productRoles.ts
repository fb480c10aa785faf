/**
 * The roles a visitor should see: the product's own, without the ones Keycloak gives every user of a realm
 * (`offline_access`, `uma_authorization`, `default-roles-<realm>`) and the roles of its built-in clients
 * (`account: manage-account-links`, `realm-management: …`, `broker: …`), which mean nothing to a visitor.
 * The token still carries them; the shell's role gate reads the token, not this list.
 */
const KEYCLOAK_REALM_ROLES = new Set(['offline_access', 'uma_authorization']);
const KEYCLOAK_CLIENTS = new Set(['account', 'realm-management', 'broker', 'security-admin-console', 'admin-cli']);

export function productRealmRoles(roles: readonly string[]): string[] {
  return roles.filter((role) => !KEYCLOAK_REALM_ROLES.has(role) && !role.startsWith('default-roles-'));
}

export function productClientRoles(clientRoles: Readonly<Record<string, readonly string[]>>): Array<[client: string, role: string]> {
  return Object.entries(clientRoles)
    .filter(([client]) => !KEYCLOAK_CLIENTS.has(client))
    .flatMap(([client, roles]) => roles.map((role): [string, string] => [client, role]));
}
