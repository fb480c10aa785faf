import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';

/** The `events` member a logout token must carry (OpenID Connect Back-Channel Logout 1.0, 2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** Asymmetric algorithms only: a token signed with a shared secret (HS*) or unsigned (`none`) is never accepted (2.6 step 3, 2.4). */
export const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * How old a logout token's `iat` may be (seconds), and how far ahead of this clock. Keycloak posts the token the moment
 * it makes it (decisions/0118: its `exp` is `iat` + 120 s); a token older than this is a
 * replay or a queue that held it too long, either way not one to act on.
 */
export const LOGOUT_TOKEN_MAX_AGE_SECONDS = 120;
export const LOGOUT_TOKEN_MAX_SKEW_SECONDS = 60;

/** What a verified logout token says: which session ended (`sid`), whose (`sub`), when, and its `jti`. */
export interface SessionEnded {
  /** the provider's session id (Keycloak's `sid`); undefined when the token names only the user */
  sid?: string;
  /** the user; undefined when the token names only the session */
  sub?: string;
  /** the logout token's `iat` (seconds since the epoch) */
  iat: number;
  jti: string;
  /** the issuer (the realm) */
  iss: string;
}

/** Why a logout token is refused: the `error_description` of the 400 (2.8). */
export class LogoutTokenRefusal extends Error {
  constructor(
    readonly reason: string,
    /** `invalid_request` for the token; `temporarily_unavailable` when it could not be checked (keys, replay store) */
    readonly error: 'invalid_request' | 'temporarily_unavailable' = 'invalid_request',
  ) {
    super(reason);
    this.name = 'LogoutTokenRefusal';
  }
}

export interface LogoutTokenVerifierOptions {
  /** the realm's issuer; its keys are at `{issuer}/protocol/openid-connect/certs` unless `keys` is given */
  issuer: string;
  /** the client the token must be for (`aud`) */
  clientId: string;
  /** the key set (default: the realm's JWKS, fetched and cached by jose) */
  keys?: JWTVerifyGetKey;
  now?: () => number;
}

/**
 * Verifies a logout token as OpenID Connect Back-Channel Logout 1.0, 2.6 asks, except the `jti` check, which the
 * caller makes against the store shared by all instances once everything else passed:
 *
 * 1. a signed JWT (an asymmetric algorithm of {@link ALGORITHMS}; `typ` header `logout+jwt`, as Keycloak 26.7 and
 *    the dev IdP send it: no ID or access token passes), verified against the realm's keys;
 * 2. `iss` the realm, `aud` naming the client, `iat` present, at most {@link LOGOUT_TOKEN_MAX_AGE_SECONDS} old and not
 *    more than {@link LOGOUT_TOKEN_MAX_SKEW_SECONDS} ahead, `exp` (when present) not passed;
 * 3. `events` an object with the member {@link BACKCHANNEL_LOGOUT_EVENT}, itself a JSON object;
 * 4. a `sid` or a `sub` (strings) or both;
 * 5. no `nonce` (which would make an ID token usable as a logout token);
 * 6. a `jti` (string, at most 256 characters).
 */
export function createLogoutTokenVerifier(options: LogoutTokenVerifierOptions) {
  const issuer = options.issuer.replace(/\/$/, '');
  const jwksUrl = `${issuer}/protocol/openid-connect/certs`;
  const keys =
    options.keys ?? createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  const now = options.now ?? Date.now;

  return async function verifyLogoutToken(token: string): Promise<SessionEnded> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new LogoutTokenRefusal('the logout token is not a JWT');
    }
    if (header.typ !== 'logout+jwt') {
      throw new LogoutTokenRefusal(`the logout token's typ is ${JSON.stringify(header.typ)}, not "logout+jwt"`);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience: options.clientId,
        algorithms: ALGORITHMS,
        requiredClaims: ['iat', 'jti'],
        currentDate: new Date(now()),
      }));
    } catch (error) {
      throw refusalOf(error, issuer, options.clientId, jwksUrl);
    }
    const seconds = now() / 1000;
    const iat = payload.iat as number;
    if (iat < seconds - LOGOUT_TOKEN_MAX_AGE_SECONDS) {
      throw new LogoutTokenRefusal(`the logout token is too old (iat more than ${LOGOUT_TOKEN_MAX_AGE_SECONDS} s ago)`);
    }
    if (iat > seconds + LOGOUT_TOKEN_MAX_SKEW_SECONDS) {
      throw new LogoutTokenRefusal(`the logout token is issued in the future (iat more than ${LOGOUT_TOKEN_MAX_SKEW_SECONDS} s ahead)`);
    }
    const events = payload['events'];
    if (typeof events !== 'object' || events === null || Array.isArray(events)) {
      throw new LogoutTokenRefusal('the logout token has no events claim');
    }
    const event = (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT];
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      throw new LogoutTokenRefusal(`the logout token's events claim has no ${BACKCHANNEL_LOGOUT_EVENT} object`);
    }
    if ('nonce' in payload) throw new LogoutTokenRefusal('the logout token carries a nonce (an ID token is not a logout token)');
    const sid = payload['sid'];
    const sub = payload.sub;
    if (sid !== undefined && (typeof sid !== 'string' || sid === ''))
      throw new LogoutTokenRefusal("the logout token's sid is not a string");
    if (sub !== undefined && (typeof sub !== 'string' || sub === ''))
      throw new LogoutTokenRefusal("the logout token's sub is not a string");
    if (sid === undefined && sub === undefined)
      throw new LogoutTokenRefusal('the logout token names neither a session (sid) nor a user (sub)');
    const jti = payload.jti as string;
    if (typeof jti !== 'string' || jti === '' || jti.length > 256)
      throw new LogoutTokenRefusal("the logout token's jti is not a string of 1–256 characters");
    return { sid, sub, iat, jti, iss: issuer };
  };
}

export type LogoutTokenVerifier = ReturnType<typeof createLogoutTokenVerifier>;

function refusalOf(error: unknown, issuer: string, clientId: string, jwksUrl: string): LogoutTokenRefusal {
  if (error instanceof errors.JWTExpired) return new LogoutTokenRefusal('the logout token expired (exp)');
  if (error instanceof errors.JWSSignatureVerificationFailed) return new LogoutTokenRefusal("the logout token's signature does not verify");
  if (error instanceof errors.JWKSNoMatchingKey)
    return new LogoutTokenRefusal(`the logout token is signed with a key that ${jwksUrl} does not publish`);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss')
      return new LogoutTokenRefusal(`the logout token is issued by ${JSON.stringify(error.payload.iss ?? null)}, not ${issuer}`);
    if (error.claim === 'aud')
      return new LogoutTokenRefusal(`the logout token is for ${JSON.stringify(error.payload.aud ?? null)}, not ${clientId}`);
    return new LogoutTokenRefusal(`the logout token's ${error.claim} is not valid: ${error.reason}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return new LogoutTokenRefusal('the logout token is signed with an algorithm this service does not take');
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid)
    return new LogoutTokenRefusal('the logout token is not a signed JWT');
  const message = error instanceof Error ? error.message : String(error);
  return new LogoutTokenRefusal(`the realm's keys could not be read (${jwksUrl}): ${message}`, 'temporarily_unavailable');
}
