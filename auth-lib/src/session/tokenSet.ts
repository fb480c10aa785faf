import type { ResolvedConfig } from './config';
import type { KeycloakLike } from './keycloak';

type Claims = Record<string, unknown>;

/**
 * The tokens one tab hands to another over the same-origin BroadcastChannel (memory only, never web
 * storage). `timeSkew` is keycloak-js's measured clock difference; every tab of a browser shares the clock.
 */
export interface TokenSet {
  readonly token: string;
  readonly refreshToken: string;
  readonly idToken: string | null;
  readonly timeSkew: number;
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

/** The tokens a keycloak-js instance holds now, or null when it holds none. */
export function readTokenSet(kc: KeycloakLike | null): TokenSet | null {
  if (!kc?.token || !kc.refreshToken) return null;
  return { token: kc.token, refreshToken: kc.refreshToken, idToken: kc.idToken ?? null, timeSkew: kc.timeSkew ?? 0 };
}

/**
 * Puts tokens another tab obtained into this tab's keycloak-js instance. keycloak-js accepts tokens only
 * in `init()`, and its setter is private, so this sets the same public fields its setter sets (keycloak-js
 * 26.2: token, refreshToken, idToken, their parsed forms, sessionId, subject, realmAccess, resourceAccess,
 * authenticated). Its login-status frame then checks the session of the new tokens; `updateToken` uses the
 * new refresh token, which is what refresh-token rotation needs when this tab becomes the leader.
 */
export function adoptTokenSet(kc: KeycloakLike, set: TokenSet): void {
  const access = decodeClaims(set.token) ?? {};
  kc.token = set.token;
  kc.tokenParsed = access;
  kc.refreshToken = set.refreshToken;
  kc.refreshTokenParsed = decodeClaims(set.refreshToken) ?? {};
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

/** Epoch milliseconds (this browser's clock) at which a token expires, or null without `exp`. */
export function expiryOf(jwt: string | undefined | null, timeSkew: number | null | undefined): number | null {
  const exp = numberClaim(decodeClaims(jwt), 'exp');
  return exp === null ? null : (exp - (timeSkew ?? 0)) * 1000;
}

/**
 * Why tokens from another tab cannot seed this one, or null when they can: they must be for this
 * provider, realm and client (`iss`, `azp`), and both the access and the refresh token must still be valid.
 * The seeded keycloak-js still checks the session with its login-status frame before it trusts them.
 */
export function seedProblem(set: TokenSet, config: ResolvedConfig, now: number): string | null {
  const access = decodeClaims(set.token);
  const refresh = decodeClaims(set.refreshToken);
  if (!access || !refresh) return 'not JWTs';
  if (access.iss !== `${config.url}/realms/${config.realm}`) return `issuer ${String(access.iss)} is not this realm`;
  if (access.azp !== config.clientId) return `issued to ${String(access.azp)}, not ${config.clientId}`;
  if (!Number.isFinite(set.timeSkew)) return 'no clock skew';
  const accessExpiry = expiryOf(set.token, set.timeSkew);
  const refreshExpiry = expiryOf(set.refreshToken, set.timeSkew);
  if (accessExpiry === null || accessExpiry <= now) return 'access token expired';
  if (refreshExpiry !== null && refreshExpiry <= now) return 'refresh token expired';
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
 * refresh and ID tokens the same session. A same-origin message with edited claims is never adopted.
 */
export function sessionMismatch(incoming: TokenSet, current: TokenSet): string | null {
  const mine = decodeClaims(current.token);
  const theirs = decodeClaims(incoming.token);
  if (!mine || !theirs) return 'not JWTs';
  for (const claim of SESSION_CLAIMS) {
    if (typeof theirs[claim] !== 'string' || theirs[claim] !== mine[claim]) return `another ${claim}`;
  }
  const refresh = decodeClaims(incoming.refreshToken);
  if (refresh?.sid !== mine.sid) return 'a refresh token of another session';
  if (incoming.idToken !== null) {
    const id = decodeClaims(incoming.idToken);
    if (!id || id.sub !== mine.sub || (id.sid !== undefined && id.sid !== mine.sid)) return 'an ID token of another session';
  }
  return null;
}

/** Whether another tab's tokens replace `current`: newer, still valid for this realm and client, and of the same session. */
export function replacesCurrent(incoming: TokenSet, current: TokenSet | null, config: ResolvedConfig): boolean {
  if (!isNewerTokenSet(incoming, current) || seedProblem(incoming, config, Date.now()) !== null) return false;
  return current === null || sessionMismatch(incoming, current) === null;
}
