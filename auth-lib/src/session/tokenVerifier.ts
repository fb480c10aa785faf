import type { ResolvedConfig } from './config';
import { importOnce } from './importOnce';
import { describeError } from './scrub';
import { LEADER_LOCK_PREFIX } from './tabLeader';
import type { TokenSet } from './tokenSet';

/**
 * Why a token set from another tab must not be used (a signature that does not verify), or null when it may.
 * `warm`, where there is one, fetches what verifying needs ahead (a tab about to be seeded calls it).
 */
export type TokenVerifier = ((set: TokenSet) => Promise<string | null>) & { readonly warm?: () => void };

type Jose = typeof import('jose');

/** jose's module, requested once per page: by `preloadTokenVerifier`, else by the first verification. */
const importJose = importOnce(() => import(/* webpackChunkName: "token-verifier" */ 'jose'));

/** How far the tokens' `iat`/`nbf`/`exp` may be off this tab's clock once keycloak-js's measured skew is applied. */
const CLOCK_TOLERANCE_S = 30;

/** The provider's keys, asked for before the session that verifies with them exists (`preloadTokenVerifier`). */
const earlyKeys = new Map<string, Promise<Response>>();

function certsOf(provider: { readonly url: string; readonly realm: string }): string {
  return `${provider.url.replace(/\/+$/, '')}/realms/${provider.realm}/protocol/openid-connect/certs`;
}

function fetchKeysEarly(certs: string, timeoutMs: number): void {
  if (earlyKeys.has(certs)) return;
  const answer = fetch(certs, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  answer.catch(() => undefined); // a failure is jose's to report, at its first verification
  earlyKeys.set(certs, answer);
}

/**
 * When another tab of this origin already leads a session (it holds a Gatehouse leader lock), this tab will be
 * seeded by it and verifies the seed: starts downloading jose now, and the provider's keys as soon as
 * `provider` (config.json's identityProvider) is known. Called by `preloadIdentityClient`; never throws.
 */
export function preloadTokenVerifier(
  provider?: PromiseLike<{ readonly url: string; readonly realm: string } | null | undefined>,
  locks: Pick<LockManager, 'query'> | undefined = globalThis.navigator?.locks,
): void {
  locks
    ?.query()
    .then(async ({ held }) => {
      if (!held?.some((lock) => lock.name?.startsWith(LEADER_LOCK_PREFIX))) return;
      importJose().catch(() => undefined);
      const known = await provider;
      if (typeof known?.url === 'string' && typeof known.realm === 'string') fetchKeysEarly(certsOf(known), 10_000);
    })
    .catch(() => undefined);
}

/**
 * Verifies another tab's tokens against the provider's published keys (`…/protocol/openid-connect/certs`,
 * fetched once and again when a token names a key it has not seen: key rotation), with jose. A same-origin
 * script can post anything on the tab channel; only what the provider signed for this realm is adopted
 * (decisions/0053). jose is loaded on first use, so a page with one tab never loads it.
 */
export function providerKeyVerifier(config: Pick<ResolvedConfig, 'url' | 'realm' | 'clientId' | 'timeout'>): TokenVerifier {
  const issuer = `${config.url}/realms/${config.realm}`;
  const certs = certsOf(config);
  let keys: { jose: Jose; jwks: ReturnType<Jose['createRemoteJWKSet']> } | null = null;
  const load = async () => {
    if (!keys) {
      const jose = await importJose();
      // the keys asked for ahead (`warm`, `preloadTokenVerifier`) while jose's chunk was still loading, once
      const keysFetch = (url: string, options: RequestInit) => {
        const answer = earlyKeys.get(certs);
        earlyKeys.delete(certs);
        return answer ?? fetch(url, options);
      };
      keys = { jose, jwks: jose.createRemoteJWKSet(new URL(certs), { timeoutDuration: config.timeout, [jose.customFetch]: keysFetch }) };
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
