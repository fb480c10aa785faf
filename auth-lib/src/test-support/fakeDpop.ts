import type { DpopDependencies } from '../session/dpop/dpop';

/**
 * DPoP at the edge of a jsdom unit test: no IndexedDB, no key, and a proof that
 * is the proof's claims, readable with `proofClaims`, instead of a signature (jsdom's realm and WebCrypto's do not mix;
 * the real proof is tested in dpop.test.ts, in Node, and in the browser specs).
 */
export const fakeDpop: DpopDependencies = {
  indexedDB: null,
  warn: () => undefined,
  generateKeyPair: async () => ({}) as CryptoKeyPair, // only the fake proof below uses it
  generateProof: async (_keyPair, htu, htm, nonce, accessToken) =>
    `proof.${Buffer.from(JSON.stringify({ htu, htm, nonce: nonce ?? null, ath: accessToken ?? null })).toString('base64url')}`,
};

/** What a fake proof was made for. */
export function proofClaims(proof: string | null): { htu: string; htm: string; nonce: string | null; ath: string | null } | null {
  if (!proof?.startsWith('proof.')) return null;
  return JSON.parse(Buffer.from(proof.slice('proof.'.length), 'base64url').toString()) as ReturnType<typeof proofClaims> & object;
}
