import type { ReactNode } from 'react';
import { AuthError } from '../errors';
import { useAuth } from './useAuth';
import { Waiting } from './states';

export interface RequireRoleProps {
  /** realm role(s) the user must have (all of them) */
  readonly realm?: string | readonly string[];
  /** a client role the user must have, as `[clientId, role]`, e.g. `["reports", "viewer"]` */
  readonly client?: readonly [clientId: string, role: string];
  /** shown when the user lacks a role or is signed out; default nothing */
  readonly fallback?: ReactNode;
  /** shown while the session is loading */
  readonly loading?: ReactNode;
  readonly children?: ReactNode;
}

/**
 * Renders its children only when the signed-in user has every role named. Role checks here shape
 * what the user sees; the APIs behind a remote must check the token themselves.
 *
 * @example
 * <RequireRole client={['reports', 'viewer']} fallback={<AccessDenied role="reports/viewer" />}>
 *   <Reports />
 * </RequireRole>
 */
export function RequireRole({ realm, client, fallback = null, loading, children }: RequireRoleProps) {
  const { status, hasRealmRole, hasClientRole } = useAuth();
  if (realm === undefined && client === undefined) {
    throw new AuthError('invalid-argument', '<RequireRole> needs realm="role" or client={["clientId", "role"]}.');
  }
  if (status === 'loading') return <>{loading ?? <Waiting />}</>;
  const realmRoles = realm === undefined ? [] : typeof realm === 'string' ? [realm] : realm;
  const allowed =
    status === 'authenticated' &&
    realmRoles.every((role) => hasRealmRole(role)) &&
    (client === undefined || hasClientRole(client[0], client[1]));
  return <>{allowed ? children : fallback}</>;
}
