import type { ResolvedConfig } from '../config';
import type { KeycloakLike } from '../keycloak/keycloak';

type Claims = Record<string, unknown>;

/**
 * The tokens one tab hands to another over the same-origin BroadcastChannel (memory only, never web
 * storage): the access and ID tokens, never the refresh token, which stays in the keycloak-js instance the
 * provider gave it to (decisions/0053). `timeSkew` is keycloak-js's measured clock difference; every tab of a
 * browser shares the clock.
 */
export interface TokenSet {
  readonly token: string;
  readonly idToken: string | null;
  readonly timeSkew: number;
  /** when the refresh token the sending tab holds expires (its `exp`, provider seconds): the session's end, for the expiry warning */
  readonly refreshExpiresAt: number | null;
}

/** The payload of a JWT, or null when it is not one (keycloak-js decodes all three tokens the same way). */
export function decodeClaims(jwt: string | undefined | null): Claims | null {
  const part = jwt?.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const json = decodeURIComponent(
      Array.from(
        atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')),
        (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
      ).join(''),
    );
    const claims: unknown = JSON.parse(json);
    return typeof claims === 'object' && claims !== null ? (claims as Claims) : null;
  } catch {
    return null;
  }
}

function numberClaim(claims: Claims | null, key: string): number | null {
  const value = claims?.[key];
  return typeof value === 'number' ? value : null;
}

/** The access and ID tokens a keycloak-js instance holds now (what may go to another tab), or null when it holds none. */
export function readTokenSet(kc: KeycloakLike | null): TokenSet | null {
  if (!kc?.token) return null;
  return {
    token: kc.token,
    idToken: kc.idToken ?? null,
    timeSkew: kc.timeSkew ?? 0,
    refreshExpiresAt: numberClaim(kc.refreshTokenParsed ?? null, 'exp'),
  };
}

/**
 * Whether `kc`'s access token has under `minValidity` seconds left (or none): keycloak-js's own
 * `isTokenExpired` arithmetic (whole seconds, its measured skew), which keycloak-js itself refuses to do for an
 * instance without a refresh token, as a tab seeded by another one is.
 */
export function tokenExpired(kc: KeycloakLike, minValidity = 0): boolean {
  const exp = kc.tokenParsed?.exp;
  if (!kc.token || kc.timeSkew === null || kc.timeSkew === undefined) return true;
  if (typeof exp !== 'number') return false;
  return exp - Math.ceil(Date.now() / 1000) + kc.timeSkew - Math.max(minValidity, 0) < 0;
}

/**
 * Puts the access and ID tokens another tab obtained into this tab's keycloak-js instance. keycloak-js
 * accepts tokens only in `init()`, and its setter is private, so this sets the same public fields its setter
 * sets (keycloak-js 26.2: token, idToken, their parsed forms, sessionId, subject, realmAccess, resourceAccess,
 * authenticated). The refresh token is left as it is: a tab that got its own from the provider keeps it, a
 * seeded tab has none and asks the tab that holds one (decisions/0053).
 */
export function adoptTokenSet(kc: KeycloakLike, set: TokenSet): void {
  const access = decodeClaims(set.token) ?? {};
  kc.token = set.token;
  kc.tokenParsed = access;
  kc.idToken = set.idToken ?? undefined;
  kc.idTokenParsed = set.idToken ? (decodeClaims(set.idToken) ?? {}) : undefined;
  kc.sessionId = typeof access.sid === 'string' ? access.sid : undefined;
  kc.subject = typeof access.sub === 'string' ? access.sub : undefined;
  kc.realmAccess = access.realm_access as KeycloakLike['realmAccess'];
  kc.resourceAccess = access.resource_access as KeycloakLike['resourceAccess'];
  kc.authenticated = true;
  kc.timeSkew = set.timeSkew;
}

/** Whether `incoming` should replace `current`: anything but an identical or older token set. */
export function isNewerTokenSet(incoming: TokenSet, current: TokenSet | null): boolean {
  if (!current) return true;
  if (incoming.token === current.token) return false;
  const incomingIat = numberClaim(decodeClaims(incoming.token), 'iat') ?? 0;
  const currentIat = numberClaim(decodeClaims(current.token), 'iat') ?? 0;
  return incomingIat >= currentIat;
}

/**
 * How far (seconds) the clock skew a tab judges other tabs' tokens with may be off zero. Every tab of a browser shares
 * the clock; keycloak-js measures the difference to the provider's from the provider's own answers, within a
 * second or two on a synchronised machine.
 */
export const MAX_TAB_SKEW_S = 300;

/**
 * The skew this tab judges another tab's tokens with: keycloak-js's own measurement of this tab (0 when it has none,
 * e.g. a tab being seeded), bounded by ±MAX_TAB_SKEW_S. Never a message's `timeSkew`: with `timeSkew: 1e9` a token
 * expired long ago would count as valid (decisions/0108).
 */
export function ownSkew(kc: Pick<KeycloakLike, 'timeSkew'> | null | undefined): number {
  const skew = kc?.timeSkew;
  if (typeof skew !== 'number' || !Number.isFinite(skew)) return 0;
  return Math.max(-MAX_TAB_SKEW_S, Math.min(MAX_TAB_SKEW_S, Math.round(skew)));
}

/** Epoch milliseconds (this browser's clock) at which a token expires, or null without `exp`. */
export function expiryOf(jwt: string | undefined | null, timeSkew: number | null | undefined): number | null {
  const exp = numberClaim(decodeClaims(jwt), 'exp');
  // keycloak-js's timeSkew is this clock minus the provider's (isTokenExpired: exp - now + timeSkew)
  return exp === null ? null : (exp + (timeSkew ?? 0)) * 1000;
}

/**
 * When the session ends at the provider (epoch ms, this clock): the newest refresh token of the session says
 * so, this tab's own or the one the leading tab holds (`sharedExp`, its `exp` as that tab last shared it).
 */
export function sessionDeadline(kc: KeycloakLike | null, sharedExp: number | null): number | null {
  const own = expiryOf(kc?.refreshToken, kc?.timeSkew);
  const shared = sharedExp === null ? null : (sharedExp + (kc?.timeSkew ?? 0)) * 1000;
  return own === null ? shared : shared === null ? own : Math.max(own, shared);
}

/**
 * What makes `access` an API's token rather than the session's, or null: a downscoped refresh's token (decisions/0054)
 * is of the session's user, session, issuer and client and verifies like the session's, but it is for one API alone
 * (its `aud` is one API of the registry) and was asked for without `openid` (the session's always has it). Posted as
 * the session's token it is refused.
 */
function apiTokenOf(access: Claims, config: ResolvedConfig): string | null {
  const aud = typeof access.aud === 'string' ? [access.aud] : Array.isArray(access.aud) ? access.aud : [];
  const only = aud.length === 1 ? config.apis?.find((api) => api.audience === aud[0]) : undefined;
  if (only) return `audience ${only.audience} alone`;
  if (typeof access.scope === 'string' && !access.scope.split(' ').includes('openid')) return `scope "${access.scope}" without openid`;
  return null;
}

/**
 * Why tokens from another tab cannot seed this one, or null when they can: they must be for this
 * provider, realm and client (`iss`, `azp`), and the access token must still be valid. Their signatures are
 * checked apart from this (tokenVerifier.ts), against the provider's published keys.
 */
export function seedProblem(set: TokenSet, config: ResolvedConfig, now: number): string | null {
  const access = decodeClaims(set.token);
  if (!access) return 'not JWTs';
  if (access.iss !== `${config.url}/realms/${config.realm}`) return `issuer ${String(access.iss)} is not this realm`;
  if (access.azp !== config.clientId) return `issued to ${String(access.azp)}, not ${config.clientId}`;
  const api = apiTokenOf(access, config);
  if (api !== null) return `an API's token (${api}), not the session's`;
  if (!Number.isFinite(set.timeSkew)) return 'no clock skew';
  const accessExpiry = expiryOf(set.token, set.timeSkew);
  if (accessExpiry === null || accessExpiry <= now) return 'access token expired';
  return null;
}

/** A token's identity without the token (FNV-1a): lets a follower say which token it has without sending it. */
export function fingerprint(jwt: string | undefined | null): string {
  let hash = 0x811c9dc5;
  for (const char of jwt ?? '') hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash.toString(36);
}

const SESSION_CLAIMS = ['sub', 'sid', 'iss', 'azp'] as const;

/**
 * Why tokens from another tab do not belong to the session this tab holds, or null when they do: the
 * access token must name the same user, SSO session, issuer and client (`sub`, `sid`, `iss`, `azp`), and the
 * ID token the same session. Edited claims are refused apart from this: their signature no longer verifies.
 */
export function sessionMismatch(incoming: TokenSet, current: TokenSet): string | null {
  const mine = decodeClaims(current.token);
  const theirs = decodeClaims(incoming.token);
  if (!mine || !theirs) return 'not JWTs';
  for (const claim of SESSION_CLAIMS) {
    if (typeof theirs[claim] !== 'string' || theirs[claim] !== mine[claim]) return `another ${claim}`;
  }
  if (incoming.idToken !== null) {
    const id = decodeClaims(incoming.idToken);
    if (!id || id.sub !== mine.sub || (id.sid !== undefined && id.sid !== mine.sid)) return 'an ID token of another session';
  }
  return null;
}

/** Whether another tab's tokens replace `current`: newer, still valid for this realm and client, and of the same session. */
export function replacesCurrent(incoming: TokenSet, current: TokenSet | null, config: ResolvedConfig): boolean {
  // the same tokens with a later deadline: the leading tab's refresh token was renewed by an API token's refresh
  const laterDeadline =
    current !== null &&
    incoming.token === current.token &&
    incoming.refreshExpiresAt !== null &&
    incoming.refreshExpiresAt > (current.refreshExpiresAt ?? 0);
  if (!(laterDeadline || isNewerTokenSet(incoming, current)) || seedProblem(incoming, config, Date.now()) !== null) return false;
  return current === null || sessionMismatch(incoming, current) === null;
}

/** Whether a message's value has the shape of a token set (another tab's; verified before any use). */
export function isTokenSet(value: unknown): value is TokenSet {
  if (typeof value !== 'object' || value === null) return false;
  const set = value as Record<string, unknown>;
  return (
    typeof set.token === 'string' &&
    (set.idToken === null || typeof set.idToken === 'string') &&
    typeof set.timeSkew === 'number' &&
    (set.refreshExpiresAt === null || typeof set.refreshExpiresAt === 'number')
  );
}

/** Only the fields of a token set, whatever else a message carried (a refresh token from an old tab is never kept). */
export function tokenFields(set: TokenSet): TokenSet {
  return { token: set.token, idToken: set.idToken, timeSkew: set.timeSkew, refreshExpiresAt: set.refreshExpiresAt };
}
