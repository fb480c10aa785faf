import {
  integrityForUrl,
  releasePathOf,
  RELEASE_FILE,
  type ReleasePublicKey,
  type ReleaseRefusal,
  type ReleaseRefusalReason,
  type VerifiedRelease,
} from '@gatehouse/federation/release';
import type { RemoteConfig } from '../config/types';
import { RemoteLoadError } from './RemoteLoadError';

/**
 * Why a pinned remote's release was not run, beyond the signature's own refusals (decisions/0117): its release
 * statement could not be fetched (`unavailable`), or its manifest says its code is an ES module, which `import()`
 * loads without `integrity` (`unverifiable-module`).
 */
export type GateRefusalReason = ReleaseRefusalReason | 'unavailable' | 'unverifiable-module';

/** What the gate tells the shell when it refuses a release or a file of one (telemetry; the slot shows the failure). */
export interface GateRefusal {
  readonly remote: string;
  readonly reason: GateRefusalReason;
  readonly message: string;
}

/** How a pinned remote stands: not verified yet, verified (its files' hashes), or an unsigned build let through in development. */
type Standing =
  | { readonly kind: 'pending' }
  | { readonly kind: 'verified'; readonly release: VerifiedRelease; readonly manifestUrl: string }
  | { readonly kind: 'unsigned' };

export interface ReleaseGateOptions {
  /** fetches mf-release.json (injectable for tests) */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** whether a pinned remote's unsigned build runs anyway (development only; production builds never allow it) */
  readonly allowUnsigned?: boolean;
  /** every refusal, once: a release that does not verify, a file it does not list */
  readonly onRefused?: (refusal: GateRefusal) => void;
  /** the page's address, which relative manifest URLs are resolved against */
  readonly base?: () => string;
}

/**
 * The shell's check of signed remote releases (decisions/0117). For every remote whose registry entry pins
 * `signingKeys`, nothing of its code runs before its release verifies: the manifest the federation runtime is about
 * to parse is answered only after `mf-release.json` beside it verifies against the pinned keys and the manifest's
 * own bytes match it ({@link admitManifest}); every script and stylesheet under the remote's folder then gets the
 * integrity the release gives it, or is not inserted at all ({@link integrityFor}, used by the DOM guard and the
 * runtime's createScript / createLink hooks). Remotes that pin no key are not touched.
 */
export class ReleaseGate {
  private readonly standings = new Map<string, Standing>();
  /** remote → files given an integrity that then failed to load, until {@link explain} reads them */
  private readonly failedFiles = new Map<string, Set<string>>();
  private readonly fetchRelease: (url: string, init: RequestInit) => Promise<Response>;

  constructor(
    private readonly remotes: () => readonly RemoteConfig[],
    private readonly options: ReleaseGateOptions = {},
  ) {
    this.fetchRelease = options.fetch ?? ((url, init) => fetch(url, init));
  }

  /** The keys a remote's entry pins, or undefined when its releases are not checked. */
  keysOf(name: string): readonly ReleasePublicKey[] | undefined {
    const keys = this.remotes().find((remote) => remote.name === name)?.signingKeys;
    return keys && keys.length > 0 ? keys : undefined;
  }

  /** Whether the remote runs an unsigned build let through in development (its slot shows a marker). */
  unsigned(name: string): boolean {
    return this.standings.get(name)?.kind === 'unsigned';
  }

  /** Forgets a remote's verified release: its next load (Retry, Update, a new release) verifies again. */
  forget(name: string): void {
    this.standings.delete(name);
    this.failedFiles.delete(name);
  }

  /** A file given its integrity failed to load (network, or the browser refusing bytes the release did not sign). */
  loadFailed(name: string, url: string): void {
    const files = this.failedFiles.get(name) ?? new Set<string>();
    files.add(url);
    this.failedFiles.set(name, files);
  }

  /**
   * Why a verified remote's files failed to load, when it is that they are not the signed ones: each file that
   * failed is fetched again and compared with the release; a RemoteLoadError (`release-unverified`, hash-mismatch)
   * for the first that differs, undefined when none does (a network failure stays one).
   */
  async explain(name: string): Promise<RemoteLoadError | undefined> {
    const files = this.failedFiles.get(name);
    this.failedFiles.delete(name);
    const standing = this.standings.get(name);
    if (!files || standing?.kind !== 'verified') return undefined;
    for (const url of files) {
      const file = releasePathOf(url, standing.manifestUrl);
      if (file === undefined) continue;
      let bytes: ArrayBuffer;
      try {
        const answer = await this.fetchRelease(new URL(url, this.base()).href, { cache: 'no-cache', credentials: 'omit' });
        if (!answer.ok) continue;
        bytes = await answer.arrayBuffer();
      } catch {
        continue;
      }
      const checked = await (await verifier()).checkFile(standing.release, file, bytes);
      if (!checked.ok) return this.refuse(name, checked);
    }
    return undefined;
  }

  /**
   * The manifest `response` the runtime asked for at `url`, as checked bytes: a new Response built from the very
   * bytes whose hash the verified release lists, so what the runtime parses is what was verified. Throws a
   * RemoteLoadError (`release-unverified`) when the release does not verify; a remote that pins no key, or a manifest
   * answered with an error status, gets its response back untouched. `pending` may still be on its way: the release
   * statement and the verifier are fetched while it is.
   */
  async admitManifest(name: string, url: string, pending: Response | Promise<Response>): Promise<Response> {
    const keys = this.keysOf(name);
    if (!keys) return pending;
    const manifestUrl = new URL(url, this.base()).href;
    const releaseUrl = new URL(RELEASE_FILE, manifestUrl);
    releaseUrl.search = new URL(manifestUrl).search; // the redeploy recovery's cache-buster, if any
    // the statement and the verifier are fetched beside the manifest, not after it
    const statement = this.fetchRelease(releaseUrl.href, { cache: 'no-cache', credentials: 'omit' })
      .then(async (answer) => {
        if (!answer.ok) throw new Error(`${releaseUrl.href} answered HTTP ${answer.status}`);
        return { release: JSON.parse(await boundedText(answer, MAX_STATEMENT_BYTES)) as unknown };
      })
      .catch((error: unknown) => ({ error }));
    const loading = verifier();
    loading.catch(() => undefined); // awaited below, or not needed when the manifest itself fails
    const response = await pending;
    if (!response.ok) return response; // the runtime reports a missing manifest as it does for any remote
    const began = performance.now();
    this.standings.set(name, { kind: 'pending' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const read = await statement;
    if ('error' in read)
      throw this.refuse(name, {
        ok: false,
        reason: 'unavailable',
        message: `its signed release statement could not be read: ${read.error instanceof Error ? read.error.message : String(read.error)}`,
      });
    const release = read.release;
    const { verifyRelease, checkFile } = await loading;
    const verified = await verifyRelease(release, keys, { name });
    if (!verified.ok) {
      if (verified.reason === 'missing-signature' && this.options.allowUnsigned) {
        this.standings.set(name, { kind: 'unsigned' });
        console.warn(`Gatehouse: the remote "${name}" runs an unsigned development build (its registry entry pins signingKeys)`);
        return rebuilt(bytes, response);
      }
      throw this.refuse(name, verified);
    }
    const file = releasePathOf(manifestUrl, manifestUrl) ?? RELEASE_FILE;
    const checked = await checkFile(verified, file, bytes);
    if (!checked.ok) throw this.refuse(name, checked);
    const unverifiable = moduleEntryOf(bytes);
    if (unverifiable) throw this.refuse(name, { ok: false, reason: 'unverifiable-module', message: unverifiable });
    this.standings.set(name, { kind: 'verified', release: verified, manifestUrl });
    measureVerification(name, began);
    return rebuilt(bytes, response);
  }

  /**
   * What a script or stylesheet at `url` may be inserted with: undefined when it is under no pinned remote's
   * folder (not the gate's concern), its integrity when the remote's verified release lists it, `unchecked` for an
   * unsigned development build, or a refusal (not verified yet, refused, or a file the release does not list).
   */
  integrityFor(
    url: string,
  ):
    { remote: string; integrity: string } | { remote: string; unchecked: true } | { remote: string; refusal: RemoteLoadError } | undefined {
    let target: URL;
    try {
      target = new URL(url, this.base());
    } catch {
      return undefined;
    }
    const remote = this.pinnedOwnerOf(target);
    if (!remote) return undefined;
    const standing = this.standings.get(remote.name) ?? { kind: 'pending' };
    if (standing.kind === 'unsigned') return { remote: remote.name, unchecked: true };
    if (standing.kind === 'pending') {
      return {
        remote: remote.name,
        refusal: this.refuse(remote.name, {
          ok: false,
          reason: 'not-listed',
          message: `${target.href} was asked for before the release of "${remote.name}" was verified`,
        }),
      };
    }
    const listed = integrityForUrl(standing.release, standing.manifestUrl, target);
    if (listed.ok) return { remote: remote.name, integrity: listed.integrity };
    return { remote: remote.name, refusal: this.refuse(remote.name, listed) };
  }

  /** The refusal of a pinned remote's code named outside its manifest's folder, which its release cannot list. */
  outside(name: string, url: string): RemoteLoadError {
    return this.refuse(name, {
      ok: false,
      reason: 'not-listed',
      message: `its manifest names code at ${url}, outside the folder of its manifest, which its signed release cannot cover`,
    });
  }

  /** The pinned remote whose manifest's folder holds `url` (the deepest folder when several do). */
  private pinnedOwnerOf(url: URL): RemoteConfig | undefined {
    let owner: { remote: RemoteConfig; depth: number } | undefined;
    for (const remote of this.remotes()) {
      if (!remote.signingKeys || remote.signingKeys.length === 0) continue;
      const manifest = new URL(remote.manifest, this.base());
      if (releasePathOf(url, manifest) === undefined) continue;
      const depth = new URL('.', manifest).pathname.length;
      if (!owner || depth > owner.depth) owner = { remote, depth };
    }
    return owner?.remote;
  }

  private refuse(name: string, refusal: ReleaseRefusal | { ok: false; reason: GateRefusalReason; message: string }): RemoteLoadError {
    this.standings.delete(name);
    this.options.onRefused?.({ remote: name, reason: refusal.reason, message: refusal.message });
    return new RemoteLoadError(
      name,
      'release-unverified',
      `The release of the remote "${name}" could not be verified against the signing keys its registry entry pins, so none of its code was run (${refusal.reason}): ${refusal.message}.`,
      { cause: refusal },
    );
  }

  private base(): string {
    return this.options.base?.() ?? globalThis.document?.baseURI ?? globalThis.location.href;
  }
}

/**
 * The most a release statement may weigh: one file's entry is about 100 bytes, so 1 MiB lists some 10,000 files. A
 * statement beyond it (a CDN serving garbage or an endless body) is refused once that much is read, not buffered.
 */
export const MAX_STATEMENT_BYTES = 1024 * 1024;

/** The body of `answer` as text, or an error once more than `limit` bytes came (read no further). */
async function boundedText(answer: Response, limit: number): Promise<string> {
  const reader = answer.body?.getReader();
  if (!reader) return answer.text();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel();
      throw new Error(`it is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The measure `npm run bench` reads as remote_verify_ms: from the manifest's arrival to its release verified. */
export const VERIFIED_MEASURE = 'gatehouse:release-verified';

/**
 * What verifying a release added after the remote's manifest arrived (waiting for its statement and the verifier
 * chunk if they came later, the signature and the manifest's hash), as a User Timing measure named
 * `gatehouse:release-verified <remote>`.
 */
function measureVerification(name: string, began: number): void {
  try {
    performance.measure(`${VERIFIED_MEASURE} ${name}`, { start: began, end: performance.now() });
  } catch {
    // a runtime without User Timing level 3 measures nothing
  }
}

/**
 * The signature verifier (jose and WebCrypto, about 12 KiB gzipped), fetched as a chunk of its own the first time a
 * pinned remote's release is checked: a page whose remotes pin no key never downloads it, and one that does fetches it
 * beside the remote's manifest, not before the shell's first render.
 */
function verifier(): Promise<typeof import('@gatehouse/federation/release')> {
  return import(/* webpackChunkName: "release-verifier" */ '@gatehouse/federation/release');
}

function rebuilt(bytes: Uint8Array, response: Response): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * A manifest whose remote entry is an ES module (a Vite remote): `import()` takes no integrity, so its code cannot be
 * held to the signed hashes (decisions/0117); the reason to refuse it, or undefined for a script entry.
 */
function moduleEntryOf(bytes: Uint8Array): string | undefined {
  let manifest: { metaData?: { remoteEntry?: { type?: unknown } } };
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes)) as typeof manifest;
  } catch {
    return undefined; // the runtime reports a manifest that is not JSON itself
  }
  const type = manifest?.metaData?.remoteEntry?.type;
  return type === 'module' || type === 'esm'
    ? `its remote entry is an ES module (type "${String(type)}"), which browsers load without integrity, so a signed release of it cannot be held to its hashes`
    : undefined;
}
