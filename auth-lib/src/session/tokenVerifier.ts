import type { ResolvedConfig } from './config';
import { describeError } from './scrub';
import type { TokenSet } from './tokenSet';

/** Why a token set from another tab must not be used (a signature that does not verify), or null when it may. */
export type TokenVerifier = (set: TokenSet) => Promise<string | null>;

type Jose = typeof import('jose');

/** How far the tokens' `iat`/`nbf`/`exp` may be off this tab's clock once keycloak-js's measured skew is applied. */
const CLOCK_TOLERANCE_S = 30;

/**
 * Verifies another tab's tokens against the provider's published keys (`…/protocol/openid-connect/certs`,
 * fetched once and again when a token names a key it has not seen: key rotation), with jose. A same-origin
 * script can post anything on the tab channel; only what the provider signed for this realm is adopted
 * (decisions/0053). jose is loaded on first use, so a page with one tab never loads it.
 */
export function providerKeyVerifier(config: Pick<ResolvedConfig, 'url' | 'realm' | 'clientId'>): TokenVerifier {
  const issuer = `${config.url}/realms/${config.realm}`;
  let keys: { jose: Jose; jwks: ReturnType<Jose['createRemoteJWKSet']> } | null = null;
  const load = async () => {
    if (!keys) {
      const jose = await import(/* webpackChunkName: "token-verifier" */ 'jose');
      keys = { jose, jwks: jose.createRemoteJWKSet(new URL(`${issuer}/protocol/openid-connect/certs`)) };
    }
    return keys;
  };
  return async (set) => {
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
}

function reason(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : null;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'signature does not verify';
  if (code === 'ERR_JWKS_NO_MATCHING_KEY') return 'signed with a key the provider does not publish';
  return describeError(error);
}
