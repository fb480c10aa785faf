import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { EmbeddedJWK, calculateJwkThumbprint, jwtVerify } from 'jose';
import type { JWK } from 'jose';

import type { OneTimeCodes } from '../sessions/OneTimeCodes.js';

/** How long a DPoP proof is accepted after its `iat` (Keycloak's default, seconds). */
export const DPOP_PROOF_LIFETIME = 10;
/** The proof algorithms Keycloak 26 names in its `WWW-Authenticate: DPoP algs="…"`. */
export const DPOP_ALGORITHMS = ['PS384', 'RS384', 'EdDSA', 'ES384', 'ES256', 'RS256', 'ES512', 'PS256', 'PS512', 'RS512'];

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

/**
 * Whether the request's `DPoP` header proves possession of the key a DPoP-bound access token names
 * (RFC 9449 §4.3 and §7.1, as Keycloak checks it): a `dpop+jwt` signed by its embedded public key whose
 * thumbprint is the token's `cnf.jkt`, for this method and URL (`htm`, `htu`), this token (`ath`), issued
 * within the last {@link DPOP_PROOF_LIFETIME} seconds, and never seen before (`jti`).
 */
export async function dpopProofValid(
  req: IncomingMessage,
  requestUrl: URL,
  token: string,
  jkt: string,
  seen: OneTimeCodes,
): Promise<boolean> {
  const proof = req.headers.dpop;
  if (typeof proof !== 'string') return false;
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: DPOP_ALGORITHMS,
      maxTokenAge: DPOP_PROOF_LIFETIME,
      clockTolerance: 2,
    });
    const htu = typeof payload.htu === 'string' ? payload.htu.replace(/[?#].*$/, '') : '';
    if (payload.htm !== req.method || htu !== `${requestUrl.origin}${requestUrl.pathname}`) return false;
    if (payload.ath !== createHash('sha256').update(token).digest('base64url')) return false;
    if ((await calculateJwkThumbprint(protectedHeader.jwk as JWK)) !== jkt) return false;
    return typeof payload.jti === 'string' && seen.firstUse(payload.jti);
  } catch {
    return false;
  }
}
