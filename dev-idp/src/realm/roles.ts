import type { Realm, Role, User } from './model.js';

/** A user's effective roles: direct mappings plus everything their composite roles grant. */
export interface EffectiveRoles {
  realm: string[];
  client: Record<string, string[]>;
}

/** Expands composites (e.g. `default-roles-<realm>`) the way Keycloak does when it builds a token. */
export function effectiveRoles(realm: Realm, user: User): EffectiveRoles {
  const realmRoles = new Set<string>();
  const clientRoles = new Map<string, Set<string>>();
  const visitRealm = (name: string): void => {
    if (realmRoles.has(name)) return;
    const role = realm.roles.find((r) => r.name === name);
    if (!role) return;
    realmRoles.add(name);
    visitComposites(role);
  };
  const visitClient = (clientId: string, name: string): void => {
    const set = clientRoles.get(clientId) ?? new Set<string>();
    if (set.has(name)) return;
    const role = realm.clients.find((c) => c.clientId === clientId)?.roles.find((r) => r.name === name);
    if (!role) return;
    set.add(name);
    clientRoles.set(clientId, set);
    visitComposites(role);
  };
  const visitComposites = (role: Role): void => {
    role.composites?.realm.forEach(visitRealm);
    for (const [clientId, names] of Object.entries(role.composites?.client ?? {})) {
      names.forEach((n) => visitClient(clientId, n));
    }
  };
  user.realmRoles.forEach(visitRealm);
  for (const [clientId, names] of Object.entries(user.clientRoles)) names.forEach((n) => visitClient(clientId, n));
  return {
    realm: [...realmRoles],
    client: Object.fromEntries([...clientRoles].map(([k, v]) => [k, [...v]])),
  };
}
