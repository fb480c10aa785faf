import { calculateJwkThumbprint, errors, flattenedVerify, importJWK, type JWK } from 'jose';
import {
  integrityFor,
  refuse,
  RELEASE_ALGORITHM,
  RELEASE_FILE,
  RELEASE_TYPE,
  RELEASE_VERSION,
  type ReleaseFile,
  type ReleasePublicKey,
  type ReleaseRefusal,
  type ReleaseStatement,
  type VerifiedRelease,
} from './files';

/** Checking a signed release's signature and its files' bytes (decisions/0117; the format: files.ts). */

const SRI = /^sha384-[A-Za-z0-9+/]{64}$/;

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
