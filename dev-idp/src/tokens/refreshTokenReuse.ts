import { createHash } from 'node:crypto';

import type { RealmRuntime } from '../server/RealmRuntime.js';

/** Keycloak's per client session record of refresh-token use (with `revokeRefreshToken` on). */
interface ClientSessionUse {
  /** the refresh token last presented (a digest, not the token) */
  current?: string;
  uses: number;
  /** seconds: when tokens were last issued to this client session */
  timestamp: number;
}

const byRealm = new WeakMap<RealmRuntime, Map<string, ClientSessionUse>>();

function record(runtime: RealmRuntime, sid: string, clientId: string): ClientSessionUse {
  let sessions = byRealm.get(runtime);
  if (!sessions) byRealm.set(runtime, (sessions = new Map()));
  const key = `${sid} ${clientId}`;
  let use = sessions.get(key);
  if (!use) sessions.set(key, (use = { uses: 0, timestamp: 0 }));
  return use;
}

/**
 * Keycloak's refresh-token reuse check (`revokeRefreshToken: true`, `refreshTokenMaxReuse` 0, its default):
 * an older refresh token than the client session's latest is "Stale token"; the latest one used a second
 * time is "Maximum allowed refresh token reuse exceeded". Both are `invalid_grant`; the session lives on.
 * Returns the error description, or undefined when the token may be used (and counts the use).
 */
export function refreshTokenReuseError(
  runtime: RealmRuntime,
  token: string,
  fields: { sid: string; azp: string; iat: number },
): string | undefined {
  if (!runtime.realm.revokeRefreshToken) return undefined;
  const use = record(runtime, fields.sid, fields.azp);
  const id = createHash('sha256').update(token).digest('base64url');
  if (use.current !== undefined && use.current !== id && fields.iat < use.timestamp) return 'Stale token';
  if (use.current !== id) {
    use.current = id;
    use.uses = 0;
  }
  if (use.uses > 0) return 'Maximum allowed refresh token reuse exceeded';
  use.uses += 1;
  return undefined;
}

/** Tokens were issued to the client session (code exchange or refresh): Keycloak updates its timestamp. */
export function refreshTokenIssued(runtime: RealmRuntime, sid: string, clientId: string): void {
  if (runtime.realm.revokeRefreshToken) record(runtime, sid, clientId).timestamp = Math.floor(Date.now() / 1000);
}
