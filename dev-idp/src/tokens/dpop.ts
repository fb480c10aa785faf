import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { EmbeddedJWK, calculateJwkThumbprint, compactVerify, decodeProtectedHeader } from 'jose';
import type { JWK, ProtectedHeaderParameters } from 'jose';

import { currentFrontendOrigin } from '../http/frontendUrl.js';
import type { OneTimeCodes } from '../sessions/OneTimeCodes.js';

/** How long a DPoP proof is accepted after its `iat` (Keycloak's default `dpop.proof.lifetime`, seconds). */
export const DPOP_PROOF_LIFETIME = 10;
/** How far a proof's `iat` may be off the server's clock either way, on top of the lifetime (Keycloak 26: 15 s). */
export const DPOP_CLOCK_SKEW = 15;
/** How long a proof's `jti` is remembered: as long as any proof with it could still be active. */
export const DPOP_REPLAY_WINDOW = DPOP_PROOF_LIFETIME + 2 * DPOP_CLOCK_SKEW;
/** The proof algorithms Keycloak 26 names in its `WWW-Authenticate: DPoP algs="…"`. */
export const DPOP_ALGORITHMS = ['PS384', 'RS384', 'EdDSA', 'ES384', 'ES256', 'RS256', 'ES512', 'PS256', 'PS512', 'RS512'];
/** Keycloak's answer to a request without the proof it needs (token endpoint: `invalid_request` or `invalid_grant`). */
export const DPOP_PROOF_MISSING = 'DPoP proof is missing';
/** Keycloak's answer to a proof of another key than the one a token is bound to. */
export const DPOP_KEY_MISMATCH = "DPoP confirmation doesn't match DPoP proof";

/** The access token of a request and the scheme it came with (`Bearer` or `DPoP`, in any case). */
export interface PresentedToken {
  scheme: 'Bearer' | 'DPoP';
  token: string;
}

export function presentedToken(req: IncomingMessage): PresentedToken | undefined {
  const match = /^(bearer|dpop)\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match?.[2]) return undefined;
  return { scheme: match[1]?.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: match[2] };
}

/** The request's `DPoP` header, if it has a non-blank one (Keycloak treats a blank one as none). */
export function dpopHeader(req: IncomingMessage): string | undefined {
  const value = req.headers.dpop;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A checked proof: the thumbprint of its key (`jkt`) and its claims; or why it was refused, in Keycloak 26's words. */
export type ProofCheck = { jkt: string; payload: Record<string, unknown> } | { error: string };

/**
 * Checks the request's DPoP proof (RFC 9449 §4.3) as Keycloak 26's DPoPUtil does, in its order, with its messages:
 * a JWS of `typ` `dpop+jwt` in one of {@link DPOP_ALGORITHMS}, signed by the public key in its `jwk` header; with
 * `jti`, `htm`, `htu` and `iat`; for this method and URL (`htu` without query and fragment); issued at most
 * {@link DPOP_CLOCK_SKEW} seconds ahead and less than lifetime + skew ago; and its `jti` (with `htu`) never seen
 * before. A proof that passes is remembered in `seen`, so it works once. Call it only when {@link dpopHeader} is set.
 */
export async function checkDpopProof(req: IncomingMessage, requestUrl: URL, seen: OneTimeCodes): Promise<ProofCheck> {
  const proof = dpopHeader(req);
  if (!proof) return { error: DPOP_PROOF_MISSING };
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    return { error: 'DPoP header verification failure' };
  }
  if (header.typ !== 'dpop+jwt') return { error: `Invalid or missing type in DPoP header: ${header.typ ?? 'null'}` };
  if (!header.alg || !DPOP_ALGORITHMS.includes(header.alg)) return { error: `Unsupported DPoP algorithm: ${header.alg ?? 'null'}` };
  const jwk = header.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== 'object') return { error: 'No JWK in DPoP header' };
  if ('d' in jwk) return { error: 'Private key is present in DPoP header' };
  let payload: Record<string, unknown>;
  try {
    const verified = await compactVerify(proof, EmbeddedJWK, { algorithms: DPOP_ALGORITHMS });
    payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
    if (!payload || typeof payload !== 'object') throw new TypeError('not a JSON object');
  } catch {
    return { error: 'DPoP verification failure: org.keycloak.exceptions.TokenSignatureInvalidException: Invalid token signature' };
  }
  const { iat, jti, htm, htu } = payload;
  const filled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
  if (typeof iat !== 'number' || !filled(jti) || !filled(htm) || !filled(htu)) return { error: 'DPoP mandatory claims are missing' };
  if (htm !== req.method) return { error: 'DPoP HTTP method mismatch' };
  const target = URL.parse(htu);
  if (!target) return { error: 'Malformed HTTP URL in DPoP proof' };
  // the address the client called: the frontend URL (--hostname, forwarded headers, else the listen address), or the
  // request's own Host, as Keycloak without a fixed hostname compares it (a provider reached through a forwarded port)
  const frontend = new URL(requestUrl.pathname, currentFrontendOrigin() ?? requestUrl.origin);
  const called = [`${frontend.origin}${frontend.pathname}`];
  if (req.headers.host) called.push(`${frontend.protocol}//${req.headers.host}${frontend.pathname}`);
  if (!called.includes(`${target.origin}${target.pathname}`)) return { error: 'DPoP HTTP URL mismatch' };
  const now = Math.floor(Date.now() / 1000);
  if (!(iat <= now + DPOP_CLOCK_SKEW && iat > now - DPOP_PROOF_LIFETIME - DPOP_CLOCK_SKEW)) return { error: 'DPoP proof is not active' };
  if (!seen.firstUse(`${jti}\n${htu}`)) return { error: 'DPoP proof has already been used' };
  return { jkt: await calculateJwkThumbprint(jwk), payload };
}

/**
 * Whether the request's `DPoP` header proves possession of the key a DPoP-bound access token names
 * (RFC 9449 §7.1, as Keycloak checks it): a valid proof ({@link checkDpopProof}) for this token (`ath`) whose key's
 * thumbprint is the token's `cnf.jkt`.
 */
export async function dpopProofValid(
  req: IncomingMessage,
  requestUrl: URL,
  token: string,
  jkt: string,
  seen: OneTimeCodes,
): Promise<boolean> {
  if (!dpopHeader(req)) return false;
  const checked = await checkDpopProof(req, requestUrl, seen);
  if ('error' in checked) return false;
  return checked.payload.ath === createHash('sha256').update(token).digest('base64url') && checked.jkt === jkt;
}
