import type { ResolvedConfig } from './config';
import { describeError } from './scrub';
import type { TokenSet } from './tokenSet';

/**
 * Why a token set from another tab must not be used (a signature that does not verify), or null when it may.
 * `warm`, where there is one, fetches what verifying needs ahead (a tab about to be seeded calls it).
 */
export type TokenVerifier = ((set: TokenSet) => Promise<string | null>) & { readonly warm?: () => void };

type Jose = typeof import('jose');

/** How far the tokens' `iat`/`nbf`/`exp` may be off this tab's clock once keycloak-js's measured skew is applied. */
const CLOCK_TOLERANCE_S = 30;

/**
 * Verifies another tab's tokens against the provider's published keys (`…/protocol/openid-connect/certs`,
 * fetched once and again when a token names a key it has not seen: key rotation), with jose. A same-origin
 * script can post anything on the tab channel; only what the provider signed for this realm is adopted
 * (decisions/0053). jose is loaded on first use, so a page with one tab never loads it.
 */
export function providerKeyVerifier(config: Pick<ResolvedConfig, 'url' | 'realm' | 'clientId' | 'timeout'>): TokenVerifier {
  const issuer = `${config.url}/realms/${config.realm}`;
  const certs = new URL(`${issuer}/protocol/openid-connect/certs`);
  // the keys, asked for by `warm` while jose's chunk is still loading (jose would ask only once it has loaded)
  let early: Promise<Response> | null = null;
  let keys: { jose: Jose; jwks: ReturnType<Jose['createRemoteJWKSet']> } | null = null;
  const load = async () => {
    if (!keys) {
      const jose = await import(/* webpackChunkName: "token-verifier" */ 'jose');
      const keysFetch = (url: string, options: RequestInit) => {
        const answer = early;
        early = null;
        return answer ?? fetch(url, options);
      };
      keys = { jose, jwks: jose.createRemoteJWKSet(certs, { timeoutDuration: config.timeout, [jose.customFetch]: keysFetch }) };
    }
    return keys;
  };
  const verify = async (set: TokenSet): Promise<string | null> => {
    let loaded: Awaited<ReturnType<typeof load>>;
    try {
      loaded = await load();
    } catch (error) {
      return `the verifier could not load (${describeError(error)})`;
    }
    const { jose, jwks } = loaded;
    // keycloak-js's timeSkew is this clock minus the provider's, in seconds
    const options = { issuer, currentDate: new Date(Date.now() - set.timeSkew * 1000), clockTolerance: CLOCK_TOLERANCE_S };
    try {
      await jose.jwtVerify(set.token, jwks, options);
    } catch (error) {
      return `access token: ${reason(error)}`;
    }
    if (set.idToken !== null) {
      try {
        await jose.jwtVerify(set.idToken, jwks, { ...options, audience: config.clientId });
      } catch (error) {
        return `ID token: ${reason(error)}`;
      }
    }
    return null;
  };
  const warm = () =>
    void load().then(
      ({ jwks }) => jwks.reload().catch(() => undefined),
      () => undefined,
    );
  return Object.assign(verify, { warm });
}

function reason(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : null;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'signature does not verify';
  if (code === 'ERR_JWKS_NO_MATCHING_KEY') return 'signed with a key the provider does not publish';
  return describeError(error);
}
