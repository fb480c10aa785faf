// Types of scripts/releaseKey.cjs, for the e2e suites (TypeScript).
/** A public release key as a registry pins it (`signingKeys`), with its RFC 7638 thumbprint as `kid`. */
export interface PinnedReleaseKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}
/** The private key (PKCS #8 PEM) of this machine's builds: .preview/release-key/local.release-key.pem. */
export declare const LOCAL_RELEASE_KEY_FILE: string;
/** Makes the local release key unless it exists; returns its file. */
export declare function ensureLocalReleaseKey(): string;
/** The local key's public half as a registry pins it. */
export declare function localPublicKey(): PinnedReleaseKey;
/** The environment a build signs with (a team key when one is set, else the local key) and which it is, in words. */
export declare function buildEnvironment(env?: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; signer: string };
/** The `kid` that signed a build's mf-release.json, or undefined when it is unsigned or has none. */
export declare function signerOf(buildDir: string): string | undefined;
/** `config` with the local key pinned for each of `remotes` (default: every remote) that pins none itself. */
export declare function pinLocalKey<T extends { remotes: Array<{ name: string; signingKeys?: unknown }> }>(
  config: T,
  remotes?: readonly string[],
): T;
