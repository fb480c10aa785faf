import { importOnce } from '../util/importOnce';
import { decodeClaims, type TokenSet } from '../tokens/tokenSet';
import type { TokenVerifier } from '../tokens/tokenVerifier';
import { generateDpopKeyPair, storedDpopKeyPair } from './keyPair';

/** panva's `dpop` (RFC 9449 proofs over WebCrypto), loaded the first time a proof is made: no page pays for it before. */
const importDpop = importOnce(() => import(/* webpackChunkName: "dpop" */ 'dpop'));

export interface DpopDependencies {
  /** where the key pair is kept (every tab of the origin shares it); absent or failing: a key of this tab alone */
  readonly indexedDB?: IDBFactory | null;
  readonly subtle?: SubtleCrypto;
  /** makes a key of this tab alone (no IndexedDB); default a non-extractable ECDSA P-256 pair from WebCrypto */
  readonly generateKeyPair?: () => Promise<CryptoKeyPair>;
  /** signs a proof; default `dpop`'s generateProof */
  readonly generateProof?: (keyPair: CryptoKeyPair, htu: string, htm: string, nonce?: string, accessToken?: string) => Promise<string>;
  readonly warn?: (message: string) => void;
}

/** The `cnf.jkt` of a DPoP-bound access token (its key's thumbprint), or null for a bearer token. */
export function boundKeyOf(token: string | null | undefined): string | null {
  const cnf = decodeClaims(token)?.cnf as { jkt?: unknown } | undefined;
  return typeof cnf?.jkt === 'string' ? cnf.jkt : null;
}

/** `url` as a proof's `htu`: without its query and fragment (RFC 9449 4.2). */
export function proofTarget(url: string | URL): string {
  const target = new URL(url);
  target.search = '';
  target.hash = '';
  return target.href;
}

function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The nonce a DPoP answer asks for (`use_dpop_nonce` with a `DPoP-Nonce` header), or null. */
async function nonceAskedFor(response: Response): Promise<string | null> {
  const nonce = response.headers?.get('DPoP-Nonce');
  if (!nonce) return null;
  if (response.status === 401) return /use_dpop_nonce/.test(response.headers.get('WWW-Authenticate') ?? '') ? nonce : null;
  if (response.status !== 400) return null;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return body.error === 'use_dpop_nonce' ? nonce : null;
  } catch {
    return null;
  }
}

/**
 * The page's proof of possession (decisions/0110): proofs signed with the browser's DPoP key, for the provider's token
 * endpoint (which then binds the tokens it issues to the key, `cnf.jkt`) and for every request a bound token goes
 * with. The last nonce each server asked for is sent with its next proofs.
 */
export class Dpop {
  private keyPair: Promise<CryptoKeyPair> | null = null;
  private thumbprint: Promise<string> | null = null;
  private readonly nonces = new Map<string, string>();

  constructor(
    /** provider, realm and client: one key per session kind */
    private readonly name: string,
    private readonly deps: DpopDependencies = {},
  ) {}

  private key(): Promise<CryptoKeyPair> {
    if (!this.keyPair) {
      const idb = this.deps.indexedDB === undefined ? globalThis.indexedDB : this.deps.indexedDB;
      const stored = idb ? storedDpopKeyPair(this.name, idb, this.deps.subtle) : Promise.reject(new Error('no IndexedDB'));
      this.keyPair = stored.catch((error: unknown) => {
        (this.deps.warn ?? console.warn)(
          `Gatehouse: this browser's IndexedDB could not keep the DPoP key (${error instanceof Error ? error.message : String(error)}); ` +
            'this tab proves with a key of its own, so tokens another tab obtained do not work here and this tab asks for its own.',
        );
        return this.deps.generateKeyPair ? this.deps.generateKeyPair() : generateDpopKeyPair(this.deps.subtle);
      });
      this.keyPair.catch(() => (this.keyPair = null));
    }
    return this.keyPair;
  }

  /**
   * Starts what a first proof needs, so that a sign-in's code exchange does not wait for it: the key (read from
   * IndexedDB, or made; no bytes to load), and with `library` the proof library's chunk too (1.7 KiB, which a visitor
   * who does not sign in never needs: the session asks for it where a code exchange is certain, a login callback).
   */
  warm(library: boolean): void {
    this.key().catch(() => undefined);
    if (library && !this.deps.generateProof) importDpop().catch(() => undefined);
  }

  /** The RFC 7638 thumbprint of this browser's DPoP key: the `cnf.jkt` of the tokens bound to it. */
  jkt(): Promise<string> {
    this.thumbprint ??= this.key().then(async ({ publicKey }) => {
      const subtle = this.deps.subtle ?? globalThis.crypto.subtle;
      const { crv, kty, x, y } = await subtle.exportKey('jwk', publicKey);
      const canonical = JSON.stringify({ crv, kty, x, y }); // the required members, in lexicographic order
      return base64url(await subtle.digest('SHA-256', new TextEncoder().encode(canonical)));
    });
    return this.thumbprint;
  }

  /** A fresh proof for one request (`accessToken`: the token it goes with, whose hash becomes `ath`). */
  async proof(method: string, url: string | URL, accessToken?: string): Promise<string> {
    const htu = proofTarget(url);
    const nonce = this.nonces.get(new URL(htu).origin);
    const keyPair = await this.key();
    const generate = this.deps.generateProof ?? (await importDpop()).generateProof;
    return generate(keyPair, htu, method.toUpperCase(), nonce, accessToken);
  }

  /**
   * The headers that carry `token` on one request: a bound token (`cnf.jkt`) as `Authorization: DPoP` with a fresh proof
   * for this method and address, a bearer token (a provider without DPoP) as `Authorization: Bearer`.
   */
  async authorization(token: string, method: string, url: string | URL): Promise<Record<string, string>> {
    if (boundKeyOf(token) === null) return { Authorization: `Bearer ${token}` };
    return { Authorization: `DPoP ${token}`, DPoP: await this.proof(method, url, token) };
  }

  /** Notes the nonce a server's answer names (`DPoP-Nonce`), for the next proofs to it; true if the answer asks for one. */
  async askedForNonce(url: string | URL, response: Response): Promise<boolean> {
    const nonce = response.headers?.get('DPoP-Nonce'); // optional: a test's fake answer may have none
    if (nonce) this.nonces.set(new URL(url).origin, nonce);
    return (await nonceAskedFor(response)) !== null;
  }

  /**
   * Sends a request with a proof (and `Authorization: DPoP <token>` when `accessToken` is given); asked for a nonce,
   * sends it again once with one.
   */
  async send(send: typeof fetch, url: string, init: RequestInit & { method: string }, accessToken?: string): Promise<Response> {
    const attempt = async () => {
      const headers = new Headers(init.headers);
      headers.set('DPoP', await this.proof(init.method, url, accessToken));
      if (accessToken) headers.set('Authorization', `DPoP ${accessToken}`);
      return send(url, { ...init, headers });
    };
    const response = await attempt();
    return (await this.askedForNonce(url, response)) ? attempt() : response;
  }
}

/**
 * `verify`, and a token set bound to another DPoP key than this browser's refused: its refresh token and access token
 * would be refused here (a tab without IndexedDB proves with a key of its own, decisions/0112). A bearer set passes.
 */
export function boundToThisBrowser(verify: TokenVerifier, dpop: Pick<Dpop, 'jkt'>): TokenVerifier {
  const checked = async (set: TokenSet): Promise<string | null> => {
    const bound = boundKeyOf(set.token);
    const [own, problem] = await Promise.all([bound === null ? null : dpop.jkt().catch(() => null), verify(set)]);
    return bound !== null && bound !== own ? "bound to a DPoP key that is not this browser's" : problem;
  };
  return verify.warm ? Object.assign(checked, { warm: verify.warm }) : checked;
}
