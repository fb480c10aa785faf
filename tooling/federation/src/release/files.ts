/**
 * Signed remote releases (decisions/0117): what a remote's build writes beside its manifest, and how a host checks
 * it. Pure and runs anywhere WebCrypto does (browsers, Node ≥ 20.19): the shell's loader and the contract check both
 * use it. This file is the format and the paths and integrities of a verified release's files, with no cryptography
 * (verify.ts has that): a shell's page needs this part whenever a remote pins keys, the verifier only once it checks
 * a release, so the shell loads the verifier on demand.
 *
 * The release file (`mf-release.json`) is a JWS in its flattened JSON serialization (RFC 7515 §7.2.2):
 * `{ "protected": b64url({"alg":"ES256","kid":<thumbprint>,"typ":"gatehouse-release+json"}), "payload":
 * b64url(statement), "signature": b64url(r‖s) }`, where the statement is `{ "version": 1, "name": <federation
 * name>, "files": { "<path from the manifest's folder>": "sha384-<base64>" } }`. The signature covers the payload's
 * bytes as written, so nothing is canonicalized. An unsigned release (a build with no key) has `payload` alone.
 */

/** The release statement's file name, beside `mf-manifest.json`. */
export const RELEASE_FILE = 'mf-release.json';
/** The JWS `typ` of a release statement: a JWS meant for something else (a token) is never taken for one. */
export const RELEASE_TYPE = 'gatehouse-release+json';
/** The only signature algorithm: ECDSA on P-256 with SHA-256. */
export const RELEASE_ALGORITHM = 'ES256';
/** The statement format this code writes and reads. */
export const RELEASE_VERSION = 1;

/** What a release says: the remote's name and the SRI integrity of every file it serves. */
export interface ReleaseStatement {
  readonly version: typeof RELEASE_VERSION;
  readonly name: string;
  /** path (relative to the manifest's folder, `/`-separated) → `sha384-<base64>` */
  readonly files: Readonly<Record<string, string>>;
}

/** The release file as written: a flattened JWS, or its payload alone when the build had no key. */
export interface ReleaseFile {
  readonly payload: string;
  readonly protected?: string;
  readonly signature?: string;
}

/** A public key a registry pins for a remote (`signingKeys` in config.json): an EC P-256 JWK. */
export interface ReleasePublicKey {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
  readonly kid?: string;
  readonly alg?: 'ES256';
  readonly use?: 'sig';
}

/** Why a release is refused; `message` says it in words, for a log or the doctor. */
export type ReleaseRefusalReason =
  'no-keys' | 'malformed' | 'missing-signature' | 'unknown-key' | 'bad-signature' | 'wrong-name' | 'not-listed' | 'hash-mismatch';

export interface ReleaseRefusal {
  readonly ok: false;
  readonly reason: ReleaseRefusalReason;
  readonly message: string;
}

/** A release whose signature verified against a pinned key. */
export interface VerifiedRelease {
  readonly ok: true;
  readonly statement: ReleaseStatement;
  /** the RFC 7638 thumbprint of the pinned key that verified it */
  readonly keyId: string;
}

/** A typed refusal (the reason and, in words, why). */
export const refuse = (reason: ReleaseRefusalReason, message: string): ReleaseRefusal => ({ ok: false, reason, message });

/** The integrity a verified release gives a file (its path from the manifest's folder), or why there is none. */
export function integrityFor(release: VerifiedRelease, file: string): { ok: true; integrity: string } | ReleaseRefusal {
  const integrity = Object.hasOwn(release.statement.files, file) ? release.statement.files[file] : undefined;
  return integrity === undefined
    ? refuse('not-listed', `${file} is not listed in the signed release of "${release.statement.name}"`)
    : { ok: true, integrity };
}

/**
 * A file's path in a release: the part of its URL after the folder of the manifest's URL, or undefined when it is
 * not under that folder (another origin, a parent folder), which no release can list.
 */
export function releasePathOf(fileUrl: string | URL, manifestUrl: string | URL): string | undefined {
  const base = new URL('.', manifestUrl);
  const file = new URL(fileUrl, base);
  if (file.origin !== base.origin || !file.pathname.startsWith(base.pathname)) return undefined;
  const relative = decodeURIComponent(file.pathname.slice(base.pathname.length));
  return relative === '' || relative.split('/').some((segment) => segment === '..' || segment === '') ? undefined : relative;
}

/**
 * What the shell's loader asks for each script or stylesheet it is about to add for a remote (the browser stage): the
 * integrity the verified release gives the file at `fileUrl`, or a refusal when the URL is outside the folder of the
 * remote's manifest or not listed. Set it as the element's `integrity`, with `crossOrigin = 'anonymous'`, before the
 * element is inserted (the fetch starts then).
 */
export function integrityForUrl(
  release: VerifiedRelease,
  manifestUrl: string | URL,
  fileUrl: string | URL,
): { ok: true; integrity: string } | ReleaseRefusal {
  const file = releasePathOf(fileUrl, manifestUrl);
  return file === undefined
    ? refuse(
        'not-listed',
        `${String(fileUrl)} is outside the folder of the manifest of "${release.statement.name}", so its signed release cannot list it`,
      )
    : integrityFor(release, file);
}
