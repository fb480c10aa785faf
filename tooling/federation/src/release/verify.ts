import { calculateJwkThumbprint, errors, flattenedVerify, importJWK, type JWK } from 'jose';

/**
 * Signed remote releases (decisions/0117): what a remote's build writes beside its manifest, and how a host checks
 * it. Pure and runs anywhere WebCrypto does (browsers, Node ≥ 20.19): the shell's loader and the contract check both
 * use it.
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

const SRI = /^sha384-[A-Za-z0-9+/]{64}$/;
const refuse = (reason: ReleaseRefusalReason, message: string): ReleaseRefusal => ({ ok: false, reason, message });

/** The RFC 7638 SHA-256 thumbprint of a public key: the `kid` a release names and the key's id in messages. */
export function keyIdOf(key: ReleasePublicKey | JWK): Promise<string> {
  const { kty, crv, x, y } = key as JWK;
  return calculateJwkThumbprint({ kty, crv, x, y } as JWK, 'sha256');
}

/** The SRI integrity (`sha384-<base64>`) of a file's bytes, as a `<script integrity>` takes it. */
export async function integrityOf(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', data as Uint8Array<ArrayBuffer>));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `sha384-${btoa(binary)}`;
}

/** The statement of a release file, signed or not, checked for shape only (no signature is checked). */
export function readStatement(release: unknown): ReleaseStatement | ReleaseRefusal {
  if (!isObject(release) || typeof release['payload'] !== 'string')
    return refuse('malformed', `${RELEASE_FILE} is not a release statement: expected a JSON object with a "payload" string (a JWS)`);
  let statement: unknown;
  try {
    statement = JSON.parse(new TextDecoder().decode(base64urlBytes(release['payload'])));
  } catch {
    return refuse('malformed', `${RELEASE_FILE}'s payload is not base64url-encoded JSON`);
  }
  return statementProblem(statement) ?? (statement as ReleaseStatement);
}

/**
 * Verifies a release file (the parsed JSON of `mf-release.json`) against the keys the registry pins for the remote:
 * its signature by one of them (ES256, matched by `kid`), its type, and, given `name`, that it is that remote's. A
 * refusal is typed; only a verified release hands out the integrity of its files (`integrityFor`).
 */
export async function verifyRelease(
  release: unknown,
  pinnedKeys: readonly ReleasePublicKey[],
  options: { readonly name?: string } = {},
): Promise<VerifiedRelease | ReleaseRefusal> {
  if (pinnedKeys.length === 0) return refuse('no-keys', 'no signing key is pinned for this remote, so no release of it can verify');
  const statement = readStatement(release);
  if ('ok' in statement) return statement;
  const jws = release as ReleaseFile;
  if (jws.signature === undefined && jws.protected === undefined)
    return refuse(
      'missing-signature',
      `the release of "${statement.name}" is not signed (a build without GATEHOUSE_RELEASE_KEY): sign it with the team's key`,
    );
  if (typeof jws.signature !== 'string' || typeof jws.protected !== 'string')
    return refuse('malformed', `${RELEASE_FILE} must carry both "protected" and "signature" strings, or neither`);
  const pinned = await Promise.all(pinnedKeys.map(async (key) => ({ key, id: await keyIdOf(key) })));
  let keyId = '';
  let signed: Uint8Array;
  try {
    ({ payload: signed } = await flattenedVerify(
      { payload: jws.payload, protected: jws.protected, signature: jws.signature },
      async (header) => {
        if (header.typ !== RELEASE_TYPE) throw new NotARelease(`its type is ${JSON.stringify(header.typ)}, not "${RELEASE_TYPE}"`);
        // the payload is base64url-encoded JSON and nothing in the header changes how it is read
        if (header.b64 !== undefined || header.crit !== undefined) throw new NotARelease('its header has "b64" or "crit"');
        const match = pinned.find(({ id }) => id === header.kid);
        if (!match) throw new UnknownKey(String(header.kid));
        keyId = match.id;
        return importJWK({ kty: 'EC', crv: 'P-256', x: match.key.x, y: match.key.y }, RELEASE_ALGORITHM);
      },
      { algorithms: [RELEASE_ALGORITHM] },
    ));
  } catch (error) {
    if (error instanceof UnknownKey)
      return refuse(
        'unknown-key',
        `the release of "${statement.name}" is signed by key ${error.message}, which is not one of the keys pinned for it (${pinned.map(({ id }) => id).join(', ')})`,
      );
    if (error instanceof NotARelease) return refuse('malformed', `${RELEASE_FILE} is not a release statement: ${error.message}`);
    if (error instanceof errors.JWSSignatureVerificationFailed)
      return refuse(
        'bad-signature',
        `the signature of the release of "${statement.name}" does not verify: the statement was changed after signing`,
      );
    const why = error instanceof Error ? error.message : String(error);
    return refuse('malformed', `${RELEASE_FILE} is not a valid signed statement: ${why}`);
  }
  // what the signature covers, read again: the statement handed out is the signed one, byte for byte
  if (new TextDecoder().decode(signed) !== new TextDecoder().decode(base64urlBytes(jws.payload)))
    return refuse('malformed', `${RELEASE_FILE}'s signed payload is not its payload`);
  if (options.name !== undefined && statement.name !== options.name)
    return refuse('wrong-name', `the release is signed for "${statement.name}", not for "${options.name}"`);
  return { ok: true, statement, keyId };
}

/** The integrity a verified release gives a file (its path from the manifest's folder), or why there is none. */
export function integrityFor(release: VerifiedRelease, file: string): { ok: true; integrity: string } | ReleaseRefusal {
  const integrity = Object.hasOwn(release.statement.files, file) ? release.statement.files[file] : undefined;
  return integrity === undefined
    ? refuse('not-listed', `${file} is not listed in the signed release of "${release.statement.name}"`)
    : { ok: true, integrity };
}

/** Whether a file's bytes are what the verified release lists for it. */
export async function checkFile(
  release: VerifiedRelease,
  file: string,
  bytes: ArrayBuffer | Uint8Array,
): Promise<{ ok: true; integrity: string } | ReleaseRefusal> {
  const listed = integrityFor(release, file);
  if (!listed.ok) return listed;
  const actual = await integrityOf(bytes);
  return actual === listed.integrity
    ? listed
    : refuse(
        'hash-mismatch',
        `${file} is not the file the release of "${release.statement.name}" signed (${actual}, signed ${listed.integrity})`,
      );
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

function statementProblem(statement: unknown): ReleaseRefusal | undefined {
  if (!isObject(statement)) return refuse('malformed', 'the release statement is not a JSON object');
  if (statement['version'] !== RELEASE_VERSION)
    return refuse(
      'malformed',
      `the release statement's version is ${JSON.stringify(statement['version'])}; this code reads version ${RELEASE_VERSION}`,
    );
  if (typeof statement['name'] !== 'string' || statement['name'] === '')
    return refuse('malformed', 'the release statement names no remote ("name")');
  const files = statement['files'];
  if (!isObject(files)) return refuse('malformed', 'the release statement lists no files ("files")');
  for (const [file, integrity] of Object.entries(files))
    if (typeof integrity !== 'string' || !SRI.test(integrity))
      return refuse('malformed', `the release statement's integrity of ${file} is not "sha384-<base64>"`);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function base64urlBytes(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

class UnknownKey extends Error {}
class NotARelease extends Error {}
