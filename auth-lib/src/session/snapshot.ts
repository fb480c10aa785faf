import type { SessionSnapshot, User } from '../types';
import type { KeycloakLike } from './keycloak/keycloak';
import { expiryOf } from './tokens/tokenSet';

type Claims = Record<string, unknown>;

function text(claims: Claims, key: string): string | null {
  const value = claims[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function roleList(value: unknown): readonly string[] {
  if (typeof value !== 'object' || value === null) return [];
  const roles = (value as { roles?: unknown }).roles;
  return Array.isArray(roles) ? Object.freeze(roles.filter((r): r is string => typeof r === 'string')) : [];
}

/** The user as the access token names them (Keycloak's standard claims). */
export function userFromClaims(claims: Claims): User | null {
  const id = text(claims, 'sub');
  if (!id) return null;
  const username = text(claims, 'preferred_username') ?? id;
  const name = text(claims, 'name') ?? ([text(claims, 'given_name'), text(claims, 'family_name')].filter(Boolean).join(' ') || username);
  return Object.freeze({ id, username, name, email: text(claims, 'email') });
}

/** Roles from `realm_access` and `resource_access`, as Keycloak puts them in the access token. */
export function rolesFromClaims(claims: Claims): Pick<SessionSnapshot, 'realmRoles' | 'clientRoles'> {
  const access = claims.resource_access;
  // Object.fromEntries defines own keys: a client named "__proto__" stays a key, never the prototype
  const clientRoles: Record<string, readonly string[]> =
    typeof access === 'object' && access !== null
      ? Object.fromEntries(Object.entries(access as Record<string, unknown>).map(([client, entry]) => [client, roleList(entry)]))
      : {};
  return { realmRoles: roleList(claims.realm_access), clientRoles: Object.freeze(clientRoles) };
}

/**
 * The signed-in part of a snapshot, read from keycloak-js after it set tokens. Expiry is converted to
 * this browser's clock with keycloak-js's measured skew (this clock minus the provider's: `exp + timeSkew`), so it
 * agrees with `isTokenExpired()`.
 */
export function signedInSnapshot(kc: KeycloakLike): Partial<SessionSnapshot> {
  const access = (kc.tokenParsed ?? {}) as Claims;
  const id = (kc.idTokenParsed ?? {}) as Claims;
  const exp = typeof access.exp === 'number' ? access.exp : null;
  const authTime = typeof id.auth_time === 'number' ? id.auth_time : typeof access.auth_time === 'number' ? access.auth_time : null;
  return {
    status: 'authenticated',
    user: userFromClaims(access) ?? userFromClaims(id),
    ...rolesFromClaims(access),
    tokenExpiresAt: exp === null ? null : (exp + (kc.timeSkew ?? 0)) * 1000,
    signedInAt: authTime === null ? null : authTime * 1000,
    sessionId: text(access, 'sid') ?? kc.sessionId ?? null,
    // Keycloak's acr mapper writes both tokens; the ID token is where an essential `acr` claim was asked for.
    acr: text(id, 'acr') ?? text(access, 'acr'),
    // the provider's deadline; SessionExpiry moves it earlier when an idle timeout is configured
    expiresAt: expiryOf(kc.refreshToken, kc.timeSkew),
    error: null,
    signOutReason: null,
  };
}

/** Everything a signed-out snapshot clears. */
export const SIGNED_OUT: Partial<SessionSnapshot> = Object.freeze({
  status: 'anonymous',
  user: null,
  realmRoles: Object.freeze([]) as readonly string[],
  clientRoles: Object.freeze({}),
  tokenExpiresAt: null,
  signedInAt: null,
  sessionId: null,
  acr: null,
  error: null,
  expiresAt: null,
});

/** The snapshot of a session that has not heard from the provider yet. */
export const LOADING_SNAPSHOT: SessionSnapshot = Object.freeze({
  ...(SIGNED_OUT as SessionSnapshot),
  status: 'loading',
  signOutReason: null,
  // keycloak-js's default until its third-party-cookie check says otherwise (owned by SessionWatch)
  sessionWatch: 'frame',
});
