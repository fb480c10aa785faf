import { heldClientRoles } from '../session/roles';
import { useMemo } from 'react';
import { useSessionSnapshot } from './useSession';

export interface Roles {
  readonly realm: readonly string[];
  /** client id → roles of that client */
  readonly client: Readonly<Record<string, readonly string[]>>;
  readonly hasRealmRole: (role: string) => boolean;
  readonly hasClientRole: (clientId: string, role: string) => boolean;
}

/**
 * The signed-in user's realm and client roles (empty when signed out). For what the user sees only:
 * the APIs a remote calls check the token themselves.
 *
 * @example
 * function ReportsLink() {
 *   const { hasClientRole } = useRoles();
 *   return hasClientRole('reports', 'viewer') ? <a href="/reports">Reports</a> : null;
 * }
 */
export function useRoles(): Roles {
  const { realmRoles, clientRoles } = useSessionSnapshot('useRoles()')[1];
  return useMemo(
    () => ({
      realm: realmRoles,
      client: clientRoles,
      hasRealmRole: (role) => realmRoles.includes(role),
      hasClientRole: (clientId, role) => heldClientRoles(clientRoles, clientId).includes(role),
    }),
    [realmRoles, clientRoles],
  );
}
