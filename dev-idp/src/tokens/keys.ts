import { exportJWK, generateKeyPair } from 'jose';
import type { CryptoKey, JWK } from 'jose';

/** A realm's RS256 signing key: the JWK oidc-provider signs with, and the same key for jose. */
export interface RealmKeys {
  kid: string;
  privateJwk: JWK;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

/** A fresh key per realm and start: tokens never survive a restart, like the in-memory sessions. */
export async function createRealmKeys(): Promise<RealmKeys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = crypto.randomUUID();
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateJwk, privateKey, publicKey };
}
