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

/**
 * Checking a signed release's signature and its files' bytes (decisions/0117; the format: files.ts), with WebCrypto
 * alone: a release is an ES256 JWS and nothing else, so reading it is base64url and JSON, and the cryptography is the
 * platform's (`crypto.subtle`: ECDSA P-256 with SHA-256, whose signature format, r‖s, is the JWS one). No JWS library
 * here: this file runs in the visitor's page whenever a remote pins keys, and jose's general JWS and JWK code
 * cost that page about 9 KiB (gzip) for what these few lines do. The build side (sign.ts) signs with jose.
 */

const SRI = /^sha384-[A-Za-z0-9+/]{64}$/;

/** The RFC 7638 SHA-256 thumbprint of a public key: the `kid` a release names and the key's id in messages. */
export async function keyIdOf(key: Pick<ReleasePublicKey, 'kty' | 'crv' | 'x' | 'y'>): Promise<string> {
  // RFC 7638 §3.2: the required members of an EC key, in lexicographic order, no whitespace
  const canonical = JSON.stringify({ crv: key.crv, kty: key.kty, x: key.x, y: key.y });
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical)));
  return base64url(digest);
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
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(base64urlBytes(jws.protected)));
  } catch {
    return refuse('malformed', `${RELEASE_FILE}'s protected header is not base64url-encoded JSON`);
  }
  if (!isObject(header)) return refuse('malformed', `${RELEASE_FILE}'s protected header is not a JSON object`);
  if (header['alg'] !== RELEASE_ALGORITHM)
    return refuse(
      'malformed',
      `${RELEASE_FILE} is not a valid signed statement: its algorithm is ${JSON.stringify(header['alg'])}, not "${RELEASE_ALGORITHM}"`,
    );
  if (header['typ'] !== RELEASE_TYPE)
    return refuse(
      'malformed',
      `${RELEASE_FILE} is not a release statement: its type is ${JSON.stringify(header['typ'])}, not "${RELEASE_TYPE}"`,
    );
  // the payload is base64url-encoded JSON and nothing in the header changes how it is read
  if (header['b64'] !== undefined || header['crit'] !== undefined)
    return refuse('malformed', `${RELEASE_FILE} is not a release statement: its header has "b64" or "crit"`);
  const pinned = await Promise.all(pinnedKeys.map(async (key) => ({ key, id: await keyIdOf(key) })));
  const match = pinned.find(({ id }) => id === header['kid']);
  if (!match)
    return refuse(
      'unknown-key',
      `the release of "${statement.name}" is signed by key ${String(header['kid'])}, which is not one of the keys pinned for it (${pinned.map(({ id }) => id).join(', ')})`,
    );
  let signature: Uint8Array;
  try {
    signature = base64urlBytes(jws.signature);
  } catch {
    return refuse('malformed', `${RELEASE_FILE}'s signature is not base64url`);
  }
  let verified: boolean;
  try {
    const key = await crypto.subtle.importKey(
      'jwk',
      { kty: 'EC', crv: 'P-256', x: match.key.x, y: match.key.y, ext: true },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    // the signing input (RFC 7515 §5.2): the protected header and the payload as written, joined by a dot
    const input = new TextEncoder().encode(`${jws.protected}.${jws.payload}`);
    verified =
      signature.length === 64 &&
      (await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature as Uint8Array<ArrayBuffer>, input));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return refuse('malformed', `${RELEASE_FILE} is not a valid signed statement: ${why}`);
  }
  if (!verified)
    return refuse(
      'bad-signature',
      `the signature of the release of "${statement.name}" does not verify: the statement was changed after signing`,
    );
  const keyId = match.id;
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

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
