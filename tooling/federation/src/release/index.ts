/**
 * `@gatehouse/federation/release`: checking a remote's signed release (decisions/0117) against the keys a registry
 * pins for it. Runs wherever WebCrypto does: the shell's loader in the browser and the contract check in Node.
 */
export { integrityFor, integrityForUrl, releasePathOf, RELEASE_ALGORITHM, RELEASE_FILE, RELEASE_TYPE, RELEASE_VERSION } from './files';
export type { ReleaseFile, ReleasePublicKey, ReleaseRefusal, ReleaseRefusalReason, ReleaseStatement, VerifiedRelease } from './files';
export { checkFile, integrityOf, keyIdOf, readStatement, verifyRelease } from './verify';
