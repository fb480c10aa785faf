import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, FlattenedSign, importPKCS8 } from 'jose';
import { REPO_ROOT } from './previewProcess';

/**
 * The production builds' test release key (decisions/0117): made once by the suite's globalSetup in the git-ignored
 * `.preview/`, never committed; the builds are signed with it (GATEHOUSE_RELEASE_KEY_FILE) and the specs' registry
 * pins its public key.
 */
const KEY_DIR = join(REPO_ROOT, '.preview/release-key');
export const TEST_RELEASE_KEY_FILE = join(KEY_DIR, 'test.release-key.pem');
const PUBLIC_FILE = join(KEY_DIR, 'test.release-key.public.json');

/** A public key as the registry pins it (`signingKeys`). */
export interface PinnedKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/** A key pair of the tests: its PEM and the public key to pin. */
export interface TestKey {
  readonly pem: string;
  readonly pinned: PinnedKey;
}

async function publicOf(publicKey: KeyObject): Promise<PinnedKey> {
  const { x, y } = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  const kid = await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x, y }, 'sha256');
  return { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ES256', use: 'sig' };
}

/** A fresh P-256 pair (another team's key, the next key of a rotation). */
export async function makeTestKey(): Promise<TestKey> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), pinned: await publicOf(publicKey) };
}

/** The suite's release key, made on first use (mode 0600). */
export async function ensureTestReleaseKey(): Promise<TestKey> {
  if (!existsSync(TEST_RELEASE_KEY_FILE) || !existsSync(PUBLIC_FILE)) {
    const key = await makeTestKey();
    mkdirSync(KEY_DIR, { recursive: true });
    writeFileSync(TEST_RELEASE_KEY_FILE, key.pem, { mode: 0o600 });
    chmodSync(TEST_RELEASE_KEY_FILE, 0o600);
    writeFileSync(PUBLIC_FILE, `${JSON.stringify(key.pinned, null, 2)}\n`);
  }
  return testReleaseKey();
}

/** The suite's release key (made by globalSetup). */
export function testReleaseKey(): TestKey {
  return {
    pem: readFileSync(TEST_RELEASE_KEY_FILE, 'utf8'),
    pinned: JSON.parse(readFileSync(PUBLIC_FILE, 'utf8')) as PinnedKey,
  };
}

/** The `kid` that signed a build's mf-release.json, or undefined when it is unsigned or missing. */
export function signerOf(buildDir: string): string | undefined {
  try {
    const release = JSON.parse(readFileSync(join(buildDir, 'mf-release.json'), 'utf8')) as { protected?: string };
    if (!release.protected) return undefined;
    return (JSON.parse(Buffer.from(release.protected, 'base64url').toString('utf8')) as { kid?: string }).kid;
  } catch {
    return undefined;
  }
}

/** Signs a build's release statement again with `key` (another team's key, a rotation's next key). */
export async function resignRelease(buildDir: string, key: TestKey): Promise<void> {
  const file = join(buildDir, 'mf-release.json');
  const { payload } = JSON.parse(readFileSync(file, 'utf8')) as { payload: string };
  const jws = await new FlattenedSign(Buffer.from(payload, 'base64url'))
    .setProtectedHeader({ alg: 'ES256', kid: key.pinned.kid, typ: 'gatehouse-release+json' })
    .sign(await importPKCS8(key.pem, 'ES256'));
  writeFileSync(file, JSON.stringify({ protected: jws.protected, payload: jws.payload, signature: jws.signature }));
}

/** Removes the signature of a build's release statement (the hashes stay, as an unsigned build writes them). */
export function unsignRelease(buildDir: string): void {
  const file = join(buildDir, 'mf-release.json');
  const { payload } = JSON.parse(readFileSync(file, 'utf8')) as { payload: string };
  writeFileSync(file, JSON.stringify({ payload }));
}
