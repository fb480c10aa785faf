import { createHash } from 'node:crypto';

import { EmbeddedJWK, calculateJwkThumbprint, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JWK, JWTPayload } from 'jose';

import { Refusal } from './refusal.js';

/**
 * The proof algorithms the APIs take (asymmetric only, RFC 9449 4.3 check 5), in the order `WWW-Authenticate: DPoP
 * algs="…"` names them; auth-lib's proofs are ES256.
 */
export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512', 'EdDSA'] as const;

/**
 * How far a proof's `iat` may be from this API's clock, either way (seconds). Keycloak takes 10 s (its proof
 * lifetime) and a few seconds of skew from its clients; a browser's clock is not synchronised with the API's, and
 * auth-lib signs with the browser's clock (it corrects no skew), so a laptop 15 s off would fail every call at 10 s.
 * 60 s either way costs little: a proof is good for one request (`jti`), one method and URL (`htm`, `htu`) and one
 * access token (`ath`, which expires in minutes), and only a holder of the key can sign one.
 */
export const DPOP_PROOF_WINDOW_SECONDS = 60;

/** How many proofs' `jti` the in-memory store remembers at most (each for twice the window). */
export const DPOP_REPLAY_STORE_LIMIT = 100_000;

/**
 * Where the `jti` of each accepted proof is remembered until it could no longer be accepted. In one process the
 * default {@link MemoryReplayStore} does; an API with more than one process needs one shared by all of them (Redis
 * `SET <key> 1 NX EX <ttl>`, a database table with a unique key): README.md, "More than one process".
 */
export interface ReplayStore {
  /** true when `key` is new (and is now remembered for `ttlSeconds`), false when it was seen within its ttl; throws when it cannot tell */
  firstUse(key: string, ttlSeconds: number): boolean | Promise<boolean>;
}

/**
 * A bounded in-memory {@link ReplayStore}. Expired keys are dropped first; when it is full of unexpired keys it
 * refuses to record more (throws: the API answers 503) instead of forgetting one, which would let that proof be
 * replayed. Only a proof that passed every other check (a valid token and a signature of its key) is recorded.
 */
export class MemoryReplayStore implements ReplayStore {
  /** key → expiry (ms since the epoch), in insertion order */
  readonly #seen = new Map<string, number>();

  constructor(
    readonly limit = DPOP_REPLAY_STORE_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.#seen.size;
  }

  firstUse(key: string, ttlSeconds: number): boolean {
    const now = this.now();
    const expiry = this.#seen.get(key);
    if (expiry !== undefined && expiry > now) return false;
    this.#seen.delete(key);
    if (this.#seen.size >= this.limit) this.#sweep(now);
    if (this.#seen.size >= this.limit) {
      throw new Error(`${this.limit} DPoP proofs are remembered and none has expired yet`);
    }
    this.#seen.set(key, now + ttlSeconds * 1000);
    return true;
  }

  #sweep(now: number): void {
    for (const [key, expiry] of this.#seen) if (expiry <= now) this.#seen.delete(key);
  }
}

/** The request a proof must be for. */
export interface ProofTarget {
  /** the request's method (`htm`) */
  method: string;
  /** the URL the client called (`htu`): the API's public URL and the request's path */
  url: URL;
}

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

const proofRefusal = (reason: string) => new Refusal(reason, 401, 'invalid_dpop_proof');

/**
 * A value of the proof (the client's words) inside a reason, which goes into a response header and a log line: as
 * JSON, printable ASCII only (anything else as `\uXXXX`), at most 200 characters.
 */
function shown(value: unknown): string {
  const json = (JSON.stringify(value ?? null) ?? 'null').replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return json.length > 200 ? `${json.slice(0, 197)}...` : json;
}

/** `url` without query and fragment, normalised as the WHATWG URL parser does (scheme and host in lower case, no default port, no dot segments). */
export function htuOf(url: string | URL): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/**
 * Checks the `DPoP` header of a request that presents `token`, bound to the key whose thumbprint is `jkt` (RFC 9449
 * 4.3 and 7.1): exactly one proof, a `dpop+jwt` JWS in an algorithm of {@link DPOP_ALGORITHMS}, carrying a public
 * `jwk` (no private member), whose signature verifies with that key and whose RFC 7638 thumbprint is `jkt`; `htm`
 * the request's method, `htu` its URL (no query or fragment, compared normalised), `iat` within `windowSeconds` of
 * now either way, `ath` the base64url SHA-256 of `token`, and a `jti` not seen before (recorded last, once every
 * other check passed). No `nonce` is asked for. Throws a {@link Refusal} (`invalid_dpop_proof`) with the reason.
 */
export async function checkDpopProof(
  proofs: readonly string[],
  target: ProofTarget,
  token: string,
  jkt: string,
  options: { windowSeconds?: number; replays: ReplayStore; now?: () => number },
): Promise<JWTPayload> {
  const window = options.windowSeconds ?? DPOP_PROOF_WINDOW_SECONDS;
  if (proofs.length === 0) throw proofRefusal('no DPoP proof: a DPoP-bound token needs a DPoP header with a proof signed by its key');
  if (proofs.length > 1 || proofs[0]?.includes(',')) throw proofRefusal('more than one DPoP proof: send exactly one DPoP header');
  const proof = proofs[0] ?? '';

  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw proofRefusal('the DPoP proof is not a JWT');
  }
  if (header.typ !== 'dpop+jwt') {
    throw proofRefusal(`the DPoP proof's typ is ${shown(header.typ)}, not "dpop+jwt"`);
  }
  if (!(DPOP_ALGORITHMS as readonly unknown[]).includes(header.alg)) {
    throw proofRefusal(`the DPoP proof is signed with ${shown(header.alg)}; this API takes ${DPOP_ALGORITHMS.join(' ')}`);
  }
  const jwk = header.jwk as JWK | undefined;
  if (typeof jwk !== 'object' || jwk === null) throw proofRefusal("the DPoP proof's header carries no public key (jwk)");
  if (PRIVATE_JWK_MEMBERS.some((member) => member in jwk)) throw proofRefusal("the DPoP proof's jwk holds a private key");

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...DPOP_ALGORITHMS] }));
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed) throw proofRefusal("the DPoP proof's signature does not verify");
    throw proofRefusal(`the DPoP proof is not valid: ${(error as Error).message}`);
  }

  if ((await calculateJwkThumbprint(jwk)) !== jkt) {
    throw proofRefusal('the DPoP proof is signed by another key than the one this token is bound to (cnf.jkt)');
  }
  if (payload['htm'] !== target.method) {
    throw proofRefusal(`the DPoP proof is for ${shown(payload['htm'])} (htm), this request is ${target.method}`);
  }
  const expected = htuOf(target.url);
  const htu = typeof payload['htu'] === 'string' ? htuOf(payload['htu']) : undefined;
  if (htu === undefined || htu !== expected) {
    throw proofRefusal(`the DPoP proof is for ${shown(payload['htu'])} (htu), this request is ${expected}`);
  }
  const now = (options.now ?? Date.now)() / 1000;
  if (typeof payload.iat !== 'number') throw proofRefusal('the DPoP proof has no iat');
  if (payload.iat < now - window) throw proofRefusal(`the DPoP proof is too old (iat more than ${window} s ago)`);
  if (payload.iat > now + window) {
    throw proofRefusal(`the DPoP proof is issued in the future (iat more than ${window} s ahead of this API's clock)`);
  }
  if (typeof payload['ath'] !== 'string') throw proofRefusal("the DPoP proof has no ath (the access token's hash)");
  if (payload['ath'] !== createHash('sha256').update(token).digest('base64url')) {
    throw proofRefusal('the DPoP proof is for another access token (ath)');
  }
  if (typeof payload.jti !== 'string' || payload.jti === '') throw proofRefusal('the DPoP proof has no jti');
  if (payload.jti.length > 256) throw proofRefusal("the DPoP proof's jti is longer than 256 characters");

  let first: boolean;
  try {
    // A proof can be accepted while its iat is within the window of now either way: remembered for both halves.
    first = await options.replays.firstUse(`${jkt}:${payload.jti}`, 2 * window);
  } catch (error) {
    throw new Refusal(`the DPoP proof's jti could not be recorded (${(error as Error).message}); try again`, 503);
  }
  if (!first) throw proofRefusal('this DPoP proof was used before (jti): each request needs a new proof');
  return payload;
}
