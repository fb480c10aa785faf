import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, FlattenedSign, importPKCS8 } from 'jose';
import { LOCAL_RELEASE_KEY_FILE, localPublicKey, type PinnedReleaseKey } from '../../../scripts/releaseKey.cjs';

/**
 * The production builds' release key is this machine's local release key (scripts/releaseKey.cjs; decisions/0117):
 * `npm run build` signs the remotes with it and `npm run preview` pins it. The specs that pin a remote use it too;
 * other keys here stand for another team's key or the next key of a rotation.
 */

/** A public key as the registry pins it (`signingKeys`). */
export type PinnedKey = PinnedReleaseKey;

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

/** The production builds' release key (the local release key, made on first use). */
export function testReleaseKey(): TestKey {
  const pinned = localPublicKey();
  return { pem: readFileSync(LOCAL_RELEASE_KEY_FILE, 'utf8'), pinned };
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
