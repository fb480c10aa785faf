import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';

import { SignJWT, calculateJwkThumbprint, exportJWK } from 'jose';

/** A client's DPoP key (RFC 9449), made in Node. */
export type DpopKey = ReturnType<typeof generateKeyPairSync>;

export const newDpopKey = (): DpopKey => generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** The RFC 7638 thumbprint of `key`: the `cnf.jkt` of a token bound to it. */
export const thumbprint = async (key: DpopKey): Promise<string> => calculateJwkThumbprint(await exportJWK(key.publicKey));

/** What a bad proof gets wrong: each field replaces the right one. */
export interface ProofFaults {
  htm?: string;
  htu?: string;
  /** seconds from now */
  iatOffset?: number;
  /** null: no `jti` */
  jti?: string | null;
  typ?: string;
  /** signs with this key while the header names the proof key */
  signer?: DpopKey;
  /** the header's `jwk` (null: none) */
  jwk?: Record<string, unknown> | null;
  /** the algorithm, for a key that is no P-256 one */
  alg?: string;
  /** claims besides RFC 9449's */
  extra?: Record<string, unknown>;
}

/** A DPoP proof for one request, signed by `key` (`accessToken`: the token it goes with, hashed into `ath`). */
export async function dpopProof(
  key: DpopKey,
  method: string,
  url: string,
  accessToken?: string,
  faults: ProofFaults = {},
): Promise<string> {
  const jti = faults.jti === undefined ? randomUUID() : faults.jti;
  const jwk = faults.jwk === undefined ? await exportJWK(key.publicKey) : faults.jwk;
  return new SignJWT({
    htm: faults.htm ?? method,
    htu: faults.htu ?? url,
    ...(jti === null ? {} : { jti }),
    ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}),
    ...faults.extra,
  })
    .setProtectedHeader({ typ: faults.typ ?? 'dpop+jwt', alg: faults.alg ?? 'ES256', ...(jwk === null ? {} : { jwk }) })
    .setIssuedAt(Math.floor(Date.now() / 1000) + (faults.iatOffset ?? 0))
    .sign((faults.signer ?? key).privateKey);
}
