import type { ResolvedConfig } from '../config';
import { importOnce } from '../util/importOnce';
import { describeError } from '../util/scrub';
import { LEADER_LOCK_PREFIX } from '../tabs/tabLeader';
import type { TokenSet } from './tokenSet';

/**
 * Why a token set from another tab must not be used (a signature that does not verify), or null when it may.
 * `warm`, where there is one, fetches what verifying needs ahead (a tab about to be seeded calls it).
 */
export type TokenVerifier = ((set: TokenSet) => Promise<string | null>) & { readonly warm?: () => void };

type Jose = typeof import('jose');
type KeyResolver = import('jose').JWTVerifyGetKey;
type KeySet = import('jose').JSONWebKeySet;

/**
 * The signature algorithms a token may name at all: asymmetric ones. `none` and the shared-secret HS* are refused
 * before any key is looked up, whatever the key set holds (not by the accident of jose's key-type rules).
 */
const SIGNING_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/**
 * The algorithms the realm publishes: the `alg` of each signing key of its key set (Keycloak names one on every key),
 * among SIGNING_ALGORITHMS; RS256 (OpenID Connect's default, Keycloak's) when no key names one.
 */
export function publishedAlgorithms(keySet: KeySet | undefined): string[] {
  const named = (keySet?.keys ?? [])
    .filter((key) => key.use === undefined || key.use === 'sig')
    .map((key) => key.alg)
    .filter((alg): alg is string => typeof alg === 'string');
  return named.length > 0 ? [...new Set(named.filter((alg) => SIGNING_ALGORITHMS.includes(alg)))] : ['RS256'];
}

/** A token signed with an algorithm the realm does not publish (`signedWith` as its header names it). */
class AlgorithmNotPublished extends Error {
  constructor(
    readonly signedWith: string,
    readonly published: readonly string[],
  ) {
    super(`signed with ${signedWith}, which the provider does not publish (it publishes ${published.join(', ') || 'none'})`);
  }
}

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
 * `provider` (config.json's identityProvider) is known. Called by `preloadIdentityClient` (preload.ts); never throws.
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
 *
 * Besides the signature: each token names an algorithm the realm publishes (`publishedAlgorithms`;
 * never `none` or HS*); the access token is one (`typ: "Bearer"`) issued to this client (`azp`), so an ID token or
 * another client's token is never adopted in its place; the ID token is one (`typ: "ID"`), for this client (`aud`,
 * and `azp` where it names one).
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
    // the key the token names, once its algorithm is one the realm's key set publishes (read after jose fetched it)
    const key: KeyResolver = async (header, token) => {
      const found = await jwks(header, token);
      const published = publishedAlgorithms(jwks.jwks());
      if (!published.includes(header.alg ?? '')) throw new AlgorithmNotPublished(String(header.alg), published);
      return found;
    };
    // keycloak-js's timeSkew is this clock minus the provider's, in seconds
    const options = {
      issuer,
      algorithms: SIGNING_ALGORITHMS,
      currentDate: new Date(Date.now() - set.timeSkew * 1000),
      clockTolerance: CLOCK_TOLERANCE_S,
    };
    try {
      const { payload } = await jose.jwtVerify(set.token, key, options);
      const problem = claimProblem(payload, 'Bearer', config.clientId, true);
      if (problem !== null) return `access token: ${problem}`;
    } catch (error) {
      return `access token: ${reason(error, jose, set.token)}`;
    }
    if (set.idToken !== null) {
      try {
        const { payload } = await jose.jwtVerify(set.idToken, key, { ...options, audience: config.clientId });
        const problem = claimProblem(payload, 'ID', config.clientId, false);
        if (problem !== null) return `ID token: ${problem}`;
      } catch (error) {
        return `ID token: ${reason(error, jose, set.idToken)}`;
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

/**
 * Why a verified token is not the kind it is taken as, or null: its `typ` (Keycloak's: `Bearer` for an access token,
 * `DPoP` for one bound to a DPoP key, `ID` for an ID token) and the client it was issued to (`azp`: required of an access token, checked where an ID
 * token names one; its `aud` is checked by jose).
 */
function claimProblem(payload: Record<string, unknown>, typ: 'Bearer' | 'ID', clientId: string, azpRequired: boolean): string | null {
  // Keycloak types an access token bound to a DPoP key (`cnf.jkt`) `DPoP` (decisions/0110)
  const cnf = payload['cnf'] as { jkt?: unknown } | undefined;
  const dpopBound = typ === 'Bearer' && payload['typ'] === 'DPoP' && typeof cnf?.jkt === 'string';
  if (payload['typ'] !== typ && !dpopBound) return `typ ${JSON.stringify(payload['typ'] ?? null)}, not "${typ}"`;
  const azp = payload['azp'];
  if (azp === undefined && !azpRequired) return null;
  return azp === clientId
    ? null
    : `issued to ${typeof azp === 'string' ? `the client ${JSON.stringify(azp)}` : 'no client (no azp)'}, not ${clientId}`;
}

function reason(error: unknown, jose: Jose, token: string): string {
  if (error instanceof AlgorithmNotPublished) return error.message;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : null;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return 'signature does not verify';
  if (code === 'ERR_JWKS_NO_MATCHING_KEY') return 'signed with a key the provider does not publish';
  if (code === 'ERR_JOSE_ALG_NOT_ALLOWED') {
    let alg = 'an algorithm';
    try {
      alg = String(jose.decodeProtectedHeader(token).alg);
    } catch {
      // the header is not readable: the general words
    }
    return `signed with ${alg}, which is never accepted (asymmetric algorithms only)`;
  }
  return describeError(error);
}
