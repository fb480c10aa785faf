// The local release key (decisions/0117): what `npm run build` signs the demo remotes' production builds with when no
// team key is given, and what `npm run preview` pins for them, so that the production topology on this machine always
// verifies its remotes' releases, as a deployed shell that pins keys does. Made on first use in the git-ignored
// `.preview/release-key/`, mode 0600, never committed; a real team's key comes from GATEHOUSE_RELEASE_KEY(_FILE).

'use strict';

const { createHash, createPublicKey, generateKeyPairSync } = require('node:crypto');
const { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');

const REPO_ROOT = resolve(__dirname, '..');

/** The private key (PKCS #8 PEM) of this machine's builds. */
const LOCAL_RELEASE_KEY_FILE = join(REPO_ROOT, '.preview/release-key/local.release-key.pem');

/** The environment variables a build reads its key from (tooling/federation/src/release/sign.ts). */
const KEY_ENV = 'GATEHOUSE_RELEASE_KEY';
const KEY_FILE_ENV = 'GATEHOUSE_RELEASE_KEY_FILE';

/** Makes the local release key unless it exists; returns its file. */
function ensureLocalReleaseKey() {
  if (!existsSync(LOCAL_RELEASE_KEY_FILE)) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    mkdirSync(dirname(LOCAL_RELEASE_KEY_FILE), { recursive: true });
    writeFileSync(LOCAL_RELEASE_KEY_FILE, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(LOCAL_RELEASE_KEY_FILE, 0o600);
  return LOCAL_RELEASE_KEY_FILE;
}

/**
 * The local key's public half as a registry pins it (`signingKeys`), with its RFC 7638 thumbprint as `kid` (the
 * `kid` a release signed with it names).
 * @returns {{ kty: 'EC', crv: 'P-256', x: string, y: string, kid: string, alg: 'ES256', use: 'sig' }}
 */
function localPublicKey() {
  const { x, y } = /** @type {{ x: string, y: string }} */ (
    createPublicKey(readFileSync(ensureLocalReleaseKey(), 'utf8')).export({ format: 'jwk' })
  );
  // RFC 7638: the SHA-256 of the required members in lexicographic order, no whitespace
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: 'P-256', kty: 'EC', x, y }))
    .digest('base64url');
  return { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ES256', use: 'sig' };
}

/**
 * The environment a build signs with: unchanged when it names a team key, else with GATEHOUSE_RELEASE_KEY_FILE set
 * to the local key. `signer` says which, for the build's log.
 * @param {NodeJS.ProcessEnv} [env]
 */
function buildEnvironment(env = process.env) {
  if (env[KEY_ENV] || env[KEY_FILE_ENV]) return { env, signer: `the key in ${env[KEY_ENV] ? KEY_ENV : env[KEY_FILE_ENV]}` };
  return {
    env: { ...env, [KEY_FILE_ENV]: ensureLocalReleaseKey() },
    signer: `this machine's local release key (${LOCAL_RELEASE_KEY_FILE})`,
  };
}

/**
 * The `kid` that signed a build's mf-release.json, or undefined when it is unsigned or has none.
 * @param {string} buildDir
 */
function signerOf(buildDir) {
  try {
    const release = JSON.parse(readFileSync(join(buildDir, 'mf-release.json'), 'utf8'));
    if (typeof release.protected !== 'string') return undefined;
    return JSON.parse(Buffer.from(release.protected, 'base64url').toString('utf8')).kid;
  } catch {
    return undefined;
  }
}

/**
 * `config` with the local key pinned for each of `remotes` (default: every remote) that pins none itself.
 * @template {{ remotes: Array<{ name: string, signingKeys?: unknown }> }} T
 * @param {T} config
 * @param {readonly string[]} [remotes]
 * @returns {T}
 */
function pinLocalKey(config, remotes) {
  const key = localPublicKey();
  return {
    ...config,
    remotes: config.remotes.map((remote) =>
      (remotes === undefined || remotes.includes(remote.name)) && remote.signingKeys === undefined
        ? { ...remote, signingKeys: [key] }
        : remote,
    ),
  };
}

module.exports = { LOCAL_RELEASE_KEY_FILE, buildEnvironment, ensureLocalReleaseKey, localPublicKey, pinLocalKey, signerOf };
