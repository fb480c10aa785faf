import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';

import { DPOP_PROOF_WINDOW_SECONDS, MemoryReplayStore, checkDpopProof } from './dpop.js';
import type { ProofTarget, ReplayStore } from './dpop.js';
import { Refusal } from './refusal.js';

export { Refusal } from './refusal.js';

/** Asymmetric algorithms only: a token signed with a shared secret (HS*) or unsigned (`none`) is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Whether the APIs take only DPoP-bound tokens: the default of {@link VerifierOptions.requireDpop} and of
 * `startDemoApi`'s option of that name (`--allow-bearer` on the command line turns it off). With it off, an unbound
 * token is taken as `Authorization: Bearer` as before; a DPoP-bound one still needs its proof either way.
 */
export const REQUIRE_DPOP = true;

export interface VerifierOptions {
  /** take only DPoP-bound tokens (`cnf.jkt`) with a valid proof; default {@link REQUIRE_DPOP} */
  requireDpop?: boolean;
  /** how far a proof's `iat` may be from now, either way (default 60 s) */
  dpopWindowSeconds?: number;
  /** where proofs' `jti` are remembered (default: in this process's memory, bounded) */
  replays?: ReplayStore;
}

/** How a request presents its token: the `Authorization` scheme, the token, its `DPoP` headers and what they must name. */
export interface Presentation {
  scheme: 'Bearer' | 'DPoP';
  token: string;
  /** every `DPoP` header of the request */
  proofs: readonly string[];
  target: ProofTarget;
}

/** The client the shell signs in with (the realm file's): the one client whose access tokens the APIs take. */
export const SHELL_CLIENT_ID = 'gatehouse-shell';

/** The realm's keys and what every token must show: its issuer, an expiry, `typ` Bearer, the shell's client. */
export interface Verifier {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** the client the token must be issued to (`azp`) */
  readonly clientId: string;
  readonly requireDpop: boolean;
  /** the verified claims of an access token for `audience` alone, or a Refusal; says nothing of its binding */
  verify(token: string, audience: string): Promise<JWTPayload>;
  /** {@link verify}, then the binding: a DPoP-bound token only as `DPoP` with a valid proof, an unbound one only when DPoP is not required */
  verifyPresented(presented: Presentation, audience: string): Promise<JWTPayload>;
}

/**
 * Verifies access tokens of the realm at `issuer` against its published keys
 * (`{issuer}/protocol/openid-connect/certs`, Keycloak's and the dev provider's JWKS), fetched on first use and
 * cached by jose's remote key set: a token with an unknown `kid` makes it fetch again (key rotation), at most once
 * per 30 s cooldown.
 *
 * Only an access token of the shell's client is taken: it must carry `exp` (a token that never
 * expires is refused, not trusted forever), `typ: "Bearer"` (Keycloak's and the dev provider's access-token type: an
 * ID token, `typ: "ID"`, whose `aud` names a client called like the API, or a refresh token is refused; `"DPoP"` is
 * taken too, for a provider that types its DPoP-bound access tokens so), and `azp` = `clientId` (a token another
 * client of the realm obtained is not the shell's session).
 *
 * Then its binding (RFC 9449): a token bound to a key (`cnf.jkt`) only as `Authorization: DPoP` with a
 * proof of that key for this request (`dpop.ts`), never as a bearer token (7.2); an unbound token only when
 * `requireDpop` is off.
 */
export function createVerifier(issuer: string, clientId: string = SHELL_CLIENT_ID, options: VerifierOptions = {}): Verifier {
  const jwksUrl = `${issuer}/protocol/openid-connect/certs`;
  const keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  const requireDpop = options.requireDpop ?? REQUIRE_DPOP;
  const replays = options.replays ?? new MemoryReplayStore();
  const windowSeconds = options.dpopWindowSeconds ?? DPOP_PROOF_WINDOW_SECONDS;
  const verifier: Verifier = {
    issuer,
    jwksUrl,
    clientId,
    requireDpop,
    async verifyPresented({ scheme, token, proofs, target }, audience) {
      const claims = await verifier.verify(token, audience);
      const jkt = (claims['cnf'] as { jkt?: unknown } | undefined)?.jkt;
      if (jkt !== undefined) {
        if (typeof jkt !== 'string' || jkt === '') throw new Refusal("this token's cnf.jkt is not a key thumbprint");
        if (scheme === 'Bearer') {
          throw new Refusal(
            'this token is bound to a DPoP key (cnf.jkt): send it as Authorization: DPoP with a DPoP proof, not as a bearer token',
            401,
            'invalid_token',
            true,
          );
        }
        await checkDpopProof(proofs, target, token, jkt, { replays, windowSeconds });
        return claims;
      }
      if (claims['typ'] === 'DPoP') throw new Refusal('this token says typ "DPoP" but names no key (no cnf.jkt)');
      if (requireDpop) {
        throw new Refusal(
          `this token is not bound to a DPoP key (no cnf.jkt); ${audience} accepts only DPoP-bound tokens, sent as Authorization: DPoP with a proof`,
        );
      }
      if (scheme === 'DPoP') throw new Refusal('this token is not bound to a DPoP key (no cnf.jkt): send it as Authorization: Bearer');
      return claims;
    },
    async verify(token, audience) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, { issuer, algorithms: ALGORITHMS, requiredClaims: ['exp'] }));
      } catch (error) {
        throw refusalOf(error, issuer, jwksUrl);
      }
      if (payload['typ'] !== 'Bearer' && payload['typ'] !== 'DPoP') {
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
  return verifier;
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
