import fs from 'node:fs';
import path from 'node:path';
import { exportJWK, exportPKCS8, FlattenedSign, generateKeyPair, importJWK, importPKCS8, type JWK } from 'jose';
import { MANIFEST } from '../appFiles';
import { RELEASE_ALGORITHM, RELEASE_FILE, RELEASE_TYPE, RELEASE_VERSION } from './files';
import type { ReleaseFile, ReleasePublicKey, ReleaseStatement } from './files';
import { integrityOf, keyIdOf } from './verify';

/**
 * Signing a remote's release at build time (decisions/0117): the statement of every file the build wrote that a host
 * runs or reads (the manifest, `remoteEntry.js`, every JS and CSS file), signed with the team's private key. The key
 * comes from the environment only, never from the repository or the build's output.
 */

/** The private key itself: a PKCS #8 PEM (`-----BEGIN PRIVATE KEY-----`) or a private JWK (JSON). */
export const RELEASE_KEY_ENV = 'GATEHOUSE_RELEASE_KEY';
/** A file holding the private key, as `GATEHOUSE_RELEASE_KEY` would (what `gatehouse-release-key` writes). */
export const RELEASE_KEY_FILE_ENV = 'GATEHOUSE_RELEASE_KEY_FILE';

/** The files of a build a release lists: what a host fetches and runs (scripts, stylesheets) and the manifest. */
const RELEASED = /\.(m?js|css)$/;

/** A private key read from the environment, ready to sign, and the id (thumbprint) of its public half. */
export interface ReleaseSigningKey {
  readonly key: CryptoKey;
  readonly keyId: string;
  /** where it came from, for messages (`GATEHOUSE_RELEASE_KEY` or the file's path): never the key */
  readonly source: string;
}

/**
 * The release key the environment names, or undefined when it names none (a dev build). A key that is named but
 * cannot be read or is not a P-256 private key throws, saying which and what to do: a build meant to be signed never
 * goes out unsigned.
 */
export async function releaseKeyFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<ReleaseSigningKey | undefined> {
  const inline = env[RELEASE_KEY_ENV]?.trim();
  const file = env[RELEASE_KEY_FILE_ENV]?.trim();
  if (inline && file)
    throw new Error(`Set ${RELEASE_KEY_ENV} or ${RELEASE_KEY_FILE_ENV}, not both: which key signs the release would be a guess.`);
  if (!inline && !file) return undefined;
  let text = inline ?? '';
  if (file) {
    try {
      text = fs.readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new Error(`${RELEASE_KEY_FILE_ENV} names ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? error}).`, {
        cause: error,
      });
    }
  }
  return importPrivateKey(text, file ?? RELEASE_KEY_ENV);
}

/** A private key from its PEM (PKCS #8) or JWK text. */
export async function importPrivateKey(text: string, source: string): Promise<ReleaseSigningKey> {
  const fix = 'make one with `npx --package=@gatehouse/federation gatehouse-release-key <remote>` (an ECDSA P-256 key)';
  try {
    if (text.startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string') throw new Error('not an EC P-256 private JWK');
      const key = (await importJWK({ ...jwk, alg: RELEASE_ALGORITHM }, RELEASE_ALGORITHM)) as CryptoKey;
      return { key, keyId: await keyIdOf({ kty: 'EC', crv: 'P-256', x: String(jwk.x), y: String(jwk.y) }), source };
    }
    if (!text.includes('-----BEGIN PRIVATE KEY-----')) throw new Error('neither a PKCS #8 PEM ("-----BEGIN PRIVATE KEY-----") nor a JWK');
    const key = await importPKCS8(text, RELEASE_ALGORITHM, { extractable: true });
    const { x, y } = await exportJWK(key);
    return { key, keyId: await keyIdOf({ kty: 'EC', crv: 'P-256', x: String(x), y: String(y) }), source };
  } catch (error) {
    throw new Error(`The release key in ${source} cannot be used: ${(error as Error).message}; ${fix}.`, { cause: error });
  }
}

/** The statement of the build in `dir`: every JS and CSS file under it and the manifest, with their integrity. */
export async function releaseStatement(dir: string, name: string): Promise<ReleaseStatement> {
  const files: Record<string, string> = {};
  const paths = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => (file === MANIFEST || RELEASED.test(file)) && fs.statSync(path.join(dir, file)).isFile())
    .sort();
  for (const file of paths) files[file] = await integrityOf(fs.readFileSync(path.join(dir, file)));
  return { version: RELEASE_VERSION, name, files };
}

/** The release file of a statement: signed when there is a key, its payload alone otherwise. */
export async function signRelease(statement: ReleaseStatement, key: ReleaseSigningKey | undefined): Promise<ReleaseFile> {
  const payload = new TextEncoder().encode(JSON.stringify(statement));
  if (!key) return { payload: Buffer.from(payload).toString('base64url') };
  const jws = await new FlattenedSign(payload)
    .setProtectedHeader({ alg: RELEASE_ALGORITHM, kid: key.keyId, typ: RELEASE_TYPE })
    .sign(key.key);
  return { protected: jws.protected as string, payload: jws.payload, signature: jws.signature };
}

let warnedUnsigned = false;

/**
 * Writes `mf-release.json` into a finished build (`dir`, beside `mf-manifest.json`): signed with the key the
 * environment names, or unsigned — said once per process — when it names none. A shell that pins keys for the remote
 * refuses an unsigned release; one that pins none ignores the file.
 */
export async function writeRelease(
  dir: string,
  name: string,
  options: { readonly env?: NodeJS.ProcessEnv; readonly warn?: (message: string) => void } = {},
): Promise<{ readonly file: string; readonly signed: boolean; readonly keyId?: string }> {
  const key = await releaseKeyFromEnv(options.env);
  const release = await signRelease(await releaseStatement(dir, name), key);
  const file = path.join(dir, RELEASE_FILE);
  fs.writeFileSync(file, `${JSON.stringify(release, null, 2)}\n`);
  if (!key && !warnedUnsigned) {
    warnedUnsigned = true;
    (options.warn ?? console.warn)(
      `[gatehouse] ${RELEASE_FILE} of "${name}" is unsigned (a dev build): set ${RELEASE_KEY_ENV} or ${RELEASE_KEY_FILE_ENV} to the team's release key to sign it. A shell that pins signing keys for "${name}" refuses this build.`,
    );
  }
  return key ? { file, signed: true, keyId: key.keyId } : { file, signed: false };
}

/** A new release key pair: the private key as PKCS #8 PEM, the public one as the JWK a registry pins. */
export async function generateReleaseKey(): Promise<{ privatePem: string; publicJwk: ReleasePublicKey & { kid: string } }> {
  const { privateKey, publicKey } = await generateKeyPair(RELEASE_ALGORITHM, { extractable: true });
  const { x, y } = await exportJWK(publicKey);
  const jwk = { kty: 'EC', crv: 'P-256', x: x as string, y: y as string } as const;
  return {
    privatePem: await exportPKCS8(privateKey),
    publicJwk: { ...jwk, kid: await keyIdOf(jwk), alg: RELEASE_ALGORITHM, use: 'sig' },
  };
}
