import type { RealmRuntime } from '../server/RealmRuntime.js';
import { originAllowed } from '../sessions/redirect.js';
import type { VerifiedAccess } from '../tokens/tokens.js';

/** Preflights for bearer endpoints: any web origin of a client of the realm. */
export function anyClientOrigin(runtime: RealmRuntime): (origin: string) => boolean {
  return (origin) => runtime.realm.clients.some((c) => originAllowed(c, origin));
}

/** Keycloak allows a bearer call from the origins the token lists in `allowed-origins`. */
export function tokenOrigins(access: VerifiedAccess | undefined): (origin: string) => boolean {
  const origins = access?.payload['allowed-origins'];
  return (origin) => Array.isArray(origins) && (origins.includes('*') || origins.includes(origin));
}
