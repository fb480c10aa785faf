import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';

/** Asymmetric algorithms only: a token signed with a shared secret (HS*) or unsigned (`none`) is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Why a token is not accepted, in words a developer reads in the 401's body and `WWW-Authenticate`. */
export class Refusal extends Error {
  constructor(
    readonly reason: string,
    /** 401: the token is the problem; 503: the identity provider could not be asked for its keys */
    readonly status: 401 | 503 = 401,
  ) {
    super(reason);
    this.name = 'Refusal';
  }
}

/** The client the shell signs in with (the realm file's): the one client whose access tokens the APIs take. */
export const SHELL_CLIENT_ID = 'gatehouse-shell';

/** The realm's keys and what every token must show: its issuer, an expiry, `typ` Bearer, the shell's client. */
export interface Verifier {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** the client the token must be issued to (`azp`) */
  readonly clientId: string;
  /** the verified claims of a token for `audience` alone, or a Refusal */
  verify(token: string, audience: string): Promise<JWTPayload>;
}

/**
 * Verifies access tokens of the realm at `issuer` against its published keys
 * (`{issuer}/protocol/openid-connect/certs`, Keycloak's and the dev provider's JWKS), fetched on first use and
 * cached by jose's remote key set: a token with an unknown `kid` makes it fetch again (key rotation), at most once
 * per 30 s cooldown.
 *
 * Only an access token of the shell's client is taken (issue 47, item 5): it must carry `exp` (a token that never
 * expires is refused, not trusted forever), `typ: "Bearer"` (Keycloak's and the dev provider's access-token type: an
 * ID token, `typ: "ID"`, whose `aud` names a client called like the API, or a refresh token is refused), no DPoP
 * binding (`cnf.jkt`, `typ: "DPoP"`: this API takes `Authorization: Bearer` and checks no proof, RFC 9449 7.2), and
 * `azp` = `clientId` (a token another client of the realm obtained is not the shell's session).
 */
export function createVerifier(issuer: string, clientId: string = SHELL_CLIENT_ID): Verifier {
  const jwksUrl = `${issuer}/protocol/openid-connect/certs`;
  const keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  return {
    issuer,
    jwksUrl,
    clientId,
    async verify(token, audience) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, { issuer, algorithms: ALGORITHMS, requiredClaims: ['exp'] }));
      } catch (error) {
        throw refusalOf(error, issuer, jwksUrl);
      }
      const cnf = payload['cnf'] as { jkt?: unknown } | undefined;
      if (payload['typ'] === 'DPoP' || (typeof cnf === 'object' && cnf !== null && cnf.jkt !== undefined)) {
        throw new Refusal(`this token is bound to a DPoP key; ${audience} takes bearer tokens only and checks no DPoP proof`);
      }
      if (payload['typ'] !== 'Bearer') {
        throw new Refusal(
          `this is not an access token (typ ${JSON.stringify(payload['typ'] ?? null)}, not "Bearer"): ${audience} accepts no ID or refresh token`,
        );
      }
      if (payload['azp'] !== clientId) {
        throw new Refusal(
          `this token was issued to ${typeof payload['azp'] === 'string' ? `the client ${payload['azp']}` : 'no client (no azp)'}, not to ${clientId}`,
        );
      }
      const aud = audiences(payload);
      if (!aud.includes(audience)) {
        throw new Refusal(
          aud.length === 0
            ? `this token names no audience; ${audience} accepts only a token for ${audience}`
            : `this token is for ${aud.join(', ')}, not ${audience}`,
        );
      }
      const others = aud.filter((a) => a !== audience);
      if (others.length > 0) {
        throw new Refusal(`this token is also for ${others.join(', ')}; ${audience} accepts only a token for ${audience} alone`);
      }
      return payload;
    },
  };
}

/** A token's `aud` as a list (Keycloak writes a single audience as a string). */
export function audiences(payload: JWTPayload): string[] {
  return payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
}

/** jose's errors in plain words; the identity provider out of reach is the API's problem (503), not the token's. */
function refusalOf(error: unknown, issuer: string, jwksUrl: string): Refusal {
  if (error instanceof errors.JWTExpired) return new Refusal('token expired');
  if (error instanceof errors.JWSSignatureVerificationFailed) return new Refusal('signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey) return new Refusal(`signed with a key that ${jwksUrl} does not publish`);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return new Refusal(`issued by ${JSON.stringify(error.payload.iss ?? null)}, not ${issuer}`);
    if (error.claim === 'nbf') return new Refusal('token not valid yet');
    if (error.claim === 'exp' && error.reason === 'missing')
      return new Refusal('this token has no expiry (exp); only tokens that expire are accepted');
    return new Refusal(`claim ${error.claim} is not valid: ${error.reason}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new Refusal('signed with an algorithm this API does not accept');
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) return new Refusal('not a JWT access token');
  if (error instanceof errors.JWKSTimeout) {
    return new Refusal(`the identity provider did not answer for its keys within 5 s (${jwksUrl}); try again`, 503);
  }
  if (error instanceof errors.JWKSInvalid || error instanceof errors.JOSEError) {
    return new Refusal(`the identity provider's keys could not be read (${jwksUrl}): ${(error as Error).message}`, 503);
  }
  // fetch failed: connection refused, DNS, reset
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new Refusal(
    `the identity provider is not reachable (${jwksUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}); start it, or try again once it is back`,
    503,
  );
}
