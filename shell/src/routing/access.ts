import type { SessionSnapshot } from '@gatehouse/auth-lib';
import type { RemoteConfig } from '../config/types';

/** A role a route needs and the visitor lacks. */
export type MissingRole =
  { readonly kind: 'realm'; readonly role: string } | { readonly kind: 'client'; readonly client: string; readonly role: string };

type Requirements = Pick<RemoteConfig, 'realmRoles' | 'clientRoles'>;
type Roles = Pick<SessionSnapshot, 'realmRoles' | 'clientRoles'>;

/** Every role of `requirements` that `roles` lacks; empty when the visitor may open the route. */
export function missingRoles(roles: Roles, requirements: Requirements): MissingRole[] {
  const missing: MissingRole[] = [];
  for (const role of requirements.realmRoles) {
    if (!roles.realmRoles.includes(role)) missing.push({ kind: 'realm', role });
  }
  for (const [client, clientRoles] of Object.entries(requirements.clientRoles)) {
    // own keys only: a client id such as "constructor" must not find Object.prototype's
    const held = Object.hasOwn(roles.clientRoles, client) ? (roles.clientRoles[client] ?? []) : [];
    for (const role of clientRoles) {
      if (!held.includes(role)) missing.push({ kind: 'client', client, role });
    }
  }
  return missing;
}

/** Whether a signed-in visitor may open the remote (used to filter the navigation). */
export function canOpen(snapshot: SessionSnapshot, remote: Requirements): boolean {
  return snapshot.status === 'authenticated' && missingRoles(snapshot, remote).length === 0;
}

/**
 * The remote whose route `pathname` opens, when that route needs nothing but a signed-in visitor: its
 * code may be fetched while the sign-in check runs. A route that needs roles or a level of
 * authentication is never fetched before the session is known (an "Access denied" or step-up page
 * must not have downloaded the remote).
 */
export function remoteToFetchEarly(remotes: readonly RemoteConfig[], pathname: string): RemoteConfig | null {
  const remote = remotes.find((r) => pathname === r.route || pathname.startsWith(`${r.route}/`));
  if (!remote || remote.acr !== undefined) return null;
  return missingRoles({ realmRoles: [], clientRoles: {} }, remote).length === 0 ? remote : null;
}

/**
 * Whether a session's level of authentication (`acr`) meets the one a remote needs. The shell does not
 * know the realm's acr.loa.map, so a name must match exactly (Keycloak names in the token the level it
 * was asked for, when it is reached); two level numbers compare as numbers. A session without an `acr`
 * meets nothing.
 */
export function meetsAcr(held: string | null, required: string): boolean {
  if (held === null) return false;
  if (held === required) return true;
  const LEVEL = /^\d+$/;
  return LEVEL.test(held) && LEVEL.test(required) && Number(held) >= Number(required);
}

/** The level a signed-in visitor must step up to before the remote may load; `null` when there is none. */
export function stepUpNeeded(snapshot: Pick<SessionSnapshot, 'acr'>, remote: Pick<RemoteConfig, 'acr'>): string | null {
  if (remote.acr === undefined || meetsAcr(snapshot.acr, remote.acr)) return null;
  return remote.acr;
}

/** "realm role admin", "client role viewer of client reports" */
export function describeRole(missing: MissingRole): string {
  return missing.kind === 'realm' ? `realm role "${missing.role}"` : `client role "${missing.role}" of client "${missing.client}"`;
}
