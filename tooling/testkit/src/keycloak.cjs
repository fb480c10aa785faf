'use strict';
// A real Keycloak 26 on this machine, without a container: `npm run keycloak`, `npm start -- --idp keycloak`
// and `npm run test:keycloak` all start it through startKeycloak() (decisions/0034).
//
// The server distribution comes from Maven Central through Maven's own client (`mvn dependency:copy` of
// org.keycloak:keycloak-quarkus-dist:<version>:zip), which caches it in ~/.m2, so it is downloaded once. Its
// SHA-512 is checked against the pinned one (KEYCLOAK_SHA512) before it is unpacked into .keycloak/ (git-ignored)
// and run there with `kc.sh start-dev`, every port on loopback: its H2 database lives in
// .keycloak/keycloak-<version>/data/, the administrator's generated password in .keycloak/admin-password (0600).
// Plain Node, no dependencies.

const { createHash, randomBytes } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const {
  chmodSync,
  closeSync,
  copyFileSync,
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const { join, relative, resolve } = require('node:path');
const { findJava } = require('./java.cjs');
const { answers, killOnExit, signalGroup, startProcess, waitForUrl } = require('./processes.cjs');
const { isDebian, isRoot, onPath } = require('./systemTools.cjs');

/** The Keycloak release every command runs: one place to change it. */
const KEYCLOAK_VERSION = '26.7.3';
const REPO_ROOT = resolve(__dirname, '../../..');
const REALM_FILE = join(REPO_ROOT, 'deploy/keycloak/gatehouse-realm.json');
/**
 * The bootstrap administrator of realm `master`. Its password is not `admin`: it is generated once per checkout
 * into ADMIN_PASSWORD_FILE (mode 0600; adminPassword()), so the password grant of `admin-cli` in realm `master`
 * takes nothing anyone could guess, and the test kit (admin.cjs) reads it from there.
 */
const ADMIN_USERNAME = 'admin';
/** Where this checkout's Keycloak administrator password lives (git-ignored, like all of .keycloak/). */
const ADMIN_PASSWORD_FILE = join(REPO_ROOT, '.keycloak/admin-password');
/** Every Keycloak of this checkout listens on loopback only, as the dev provider does. */
const LOOPBACK = '127.0.0.1';
/** Bounded so Keycloak fits beside the browser tests; JAVA_OPTS_KC_HEAP in the environment wins. */
const DEFAULT_HEAP = '-Xms64m -Xmx768m';
/**
 * The JIT's first tier only (C1), for a Keycloak that lives for a few tests (StartOptions.quickStart): a start with
 * an existing database took 7.7 s of CPU instead of 13.6 s, a new one with the realm imported 17.3 instead of 25.8,
 * a cluster node's restart 9.9 instead of 17.2. Not for one that serves a whole run: C1's slower code then costs
 * more than C2's compilations (decisions/0102).
 */
const QUICK_START = '-XX:TieredStopAtLevel=1';

/** A failure of the runner, with a stable code and a message that says what to do. */
class KeycloakRunnerError extends Error {
  /**
   * @param {'KEYCLOAK_NO_MAVEN' | 'KEYCLOAK_DOWNLOAD_FAILED' | 'KEYCLOAK_CHECKSUM_MISMATCH' | 'KEYCLOAK_PORT_TAKEN' | 'KEYCLOAK_EXITED' | 'KEYCLOAK_NOT_READY' | 'KEYCLOAK_BAD_PROXY_OPTIONS'} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = 'KeycloakRunnerError';
    this.code = code;
  }
}

/** @param {string} message */
function defaultLog(message) {
  process.stderr.write(`[keycloak] ${message}\n`);
}

/** The command that installs Maven on this machine. */
function mavenInstallCommand() {
  if (process.platform === 'darwin') return 'brew install maven';
  return isDebian() ? `${isRoot() ? '' : 'sudo '}apt-get install -y maven` : "your system's `maven` package";
}

/**
 * Says every `everyMs` how long `what` has been going on, until the returned function is called.
 *
 * @param {(message: string) => void} log @param {string} what @param {number} [everyMs]
 */
function heartbeat(log, what, everyMs = 10_000) {
  const started = Date.now();
  const timer = setInterval(() => log(`${what} (${Math.round((Date.now() - started) / 1000)} s)`), everyMs);
  return () => clearInterval(timer);
}

/**
 * This checkout's Keycloak administrator password: read from `file`, or generated (24 random bytes, base64url)
 * and written there with mode 0600 the first time. `generated` says whether it was made now (the only time the
 * runner prints it). A file others may read is refused: fix its mode or delete it.
 *
 * @param {string} [file] @returns {{ password: string, generated: boolean, file: string }}
 */
function adminPassword(file = ADMIN_PASSWORD_FILE) {
  if (existsSync(file)) {
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077)
      throw new Error(
        `${file} is readable by others (mode ${mode.toString(8)}): run \`chmod 600 ${file}\`, or delete it for a new password.`,
      );
    const password = readFileSync(file, 'utf8').trim();
    if (password.length < 16) throw new Error(`${file} holds no password of 16 characters or more: delete it for a new one.`);
    return { password, generated: false, file };
  }
  mkdirSync(join(file, '..'), { recursive: true });
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { password, generated: true, file };
}

/**
 * The SHA-512 of each Keycloak server distribution the runner may run (keycloak-quarkus-dist-<version>.zip): the
 * digest Maven Central publishes beside the file (….zip.sha512), checked here before the zip is unpacked or any of
 * it runs. A new KEYCLOAK_VERSION needs its line.
 */
const KEYCLOAK_SHA512 = Object.freeze({
  '26.7.3':
    '15c764765576eef267cf15cc5225a5826b5394a25a83d9bfa5b8544e4bbba690cb743c9d384200b93bb71ee4c4a328e1dd8c0a00f822fd3e6e154f14b1e47216',
});
/** Written into a home unpacked from a verified zip: the zip's SHA-512. A home without it is fetched again. */
const VERIFIED_STAMP = '.gatehouse-verified-sha512';

/** The SHA-512 of a file, hex. @param {string} file @returns {Promise<string>} */
function sha512Of(file) {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('sha512');
    createReadStream(file)
      .on('error', reject)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolvePromise(hash.digest('hex')));
  });
}

/**
 * Runs a command to its end; resolves to its exit code and output.
 *
 * @param {string} command @param {readonly string[]} args @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @param {(line: string) => void} [onLine]
 */
async function run(command, args, { cwd, env }, onLine = () => {}) {
  const child = startProcess(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (/** @type {Buffer} */ chunk) => {
    output += chunk.toString();
    for (const line of chunk.toString().split('\n')) onLine(line);
  };
  child.child.stdout?.on('data', collect);
  child.child.stderr?.on('data', collect);
  const { code } = await child.exited;
  return { code, output };
}

/**
 * The unpacked distribution `<dir>/keycloak-<version>`, fetched with Maven the first time: Maven downloads the
 * zip into ~/.m2 (once; `-C`: a checksum mismatch with the repository fails instead of warning) and copies it
 * into a scratch folder, where its SHA-512 is compared with the pinned one (KEYCLOAK_SHA512) **before** it is
 * unpacked (`unzip`, else the JDK's `jar`). Unpacks into the scratch folder and renames it, so an interrupted
 * unpack is never taken for a finished one; the home carries the zip's digest (VERIFIED_STAMP), and a home
 * without the pinned digest (an older runner's, or anyone's) is fetched again before it runs.
 *
 * @param {{ dir: string, version?: string, log?: (message: string) => void, mavenArgs?: readonly string[],
 *           env?: NodeJS.ProcessEnv, sha512?: string }} options `mavenArgs` e.g. `-Dmaven.repo.local=<dir>`; `env` has
 *   the PATH to find mvn (and unzip or jar) on; `sha512` the digest to expect (default KEYCLOAK_SHA512[version])
 * @returns {Promise<string>} the Keycloak home
 */
async function obtainKeycloak({ dir, version = KEYCLOAK_VERSION, log = defaultLog, mavenArgs = [], env = process.env, sha512 }) {
  const expected = sha512 ?? KEYCLOAK_SHA512[/** @type {keyof typeof KEYCLOAK_SHA512} */ (version)];
  if (!expected)
    throw new KeycloakRunnerError(
      'KEYCLOAK_DOWNLOAD_FAILED',
      `No SHA-512 is pinned for Keycloak ${version}: add the digest Maven Central publishes (keycloak-quarkus-dist-${version}.zip.sha512) to KEYCLOAK_SHA512 in tooling/testkit/src/keycloak.cjs.`,
    );
  const home = join(dir, `keycloak-${version}`);
  const stamp = join(home, VERIFIED_STAMP);
  if (existsSync(join(home, 'bin/kc.sh'))) {
    if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === expected) return home;
    log(`${relative(process.cwd(), home) || home} was not unpacked from a verified download: fetching Keycloak ${version} again`);
  }
  const mvn = onPath('mvn', env.PATH ?? '');
  if (!mvn)
    throw new KeycloakRunnerError(
      'KEYCLOAK_NO_MAVEN',
      `Maven is needed to fetch Keycloak ${version} (mvn is not on PATH). Install it with \`${mavenInstallCommand()}\`, then run the command again.`,
    );
  const unpacking = join(dir, `.unpacking-${process.pid}`);
  rmSync(unpacking, { recursive: true, force: true });
  mkdirSync(unpacking, { recursive: true });
  const fail = (/** @type {KeycloakRunnerError} */ error) => {
    rmSync(unpacking, { recursive: true, force: true });
    return error;
  };
  const artifact = `org.keycloak:keycloak-quarkus-dist:${version}:zip`;
  log(`fetching Keycloak ${version} with Maven (${artifact}; ~150 MB the first time, then from ~/.m2) …`);
  const started = Date.now();
  const done = heartbeat(log, 'still fetching');
  // Run in the scratch folder: without a pom, the plugin leaves a "${project.basedir}" folder in its working directory.
  const args = ['-B', '-C', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${unpacking}`, ...mavenArgs];
  const zip = join(unpacking, `keycloak-quarkus-dist-${version}.zip`);
  const maven = await run(mvn, args, { cwd: unpacking, env }, (line) => {
    if (/Download(ing|ed) from .*keycloak-quarkus-dist/.test(line)) log(line.trim());
  }).finally(done);
  if (maven.code !== 0 || !existsSync(zip)) {
    const errors = maven.output
      .split('\n')
      .filter((line) => /ERROR/.test(line))
      .slice(0, 8)
      .join('\n');
    throw fail(
      new KeycloakRunnerError(
        'KEYCLOAK_DOWNLOAD_FAILED',
        `\`mvn ${args.join(' ')}\` failed (exit code ${maven.code}):\n${errors || maven.output.slice(-2000)}\nCheck that Maven reaches Maven Central (a proxy goes into ~/.m2/settings.xml), then run the command again.`,
      ),
    );
  }
  const actual = await sha512Of(zip);
  if (actual !== expected)
    throw fail(
      new KeycloakRunnerError(
        'KEYCLOAK_CHECKSUM_MISMATCH',
        `The Keycloak ${version} download is not the published one: its SHA-512 is ${actual}, expected ${expected}. Nothing of it was unpacked or run. Delete the copy in your Maven repository (~/.m2/repository/org/keycloak/keycloak-quarkus-dist/${version}/) and check your Maven mirror, then run the command again.`,
      ),
    );
  const unzip = onPath('unzip', env.PATH ?? '');
  const jar = unzip ? null : onPath('jar', `${env.JAVA_HOME ? join(env.JAVA_HOME, 'bin') : ''}:${env.PATH ?? ''}`);
  if (!unzip && !jar)
    throw fail(
      new KeycloakRunnerError(
        'KEYCLOAK_DOWNLOAD_FAILED',
        "Unpacking Keycloak needs `unzip` or the JDK's `jar` on PATH: install unzip, then run the command again.",
      ),
    );
  const unpacked = unzip
    ? await run(unzip, ['-q', zip], { cwd: unpacking, env })
    : await run(/** @type {string} */ (jar), ['xf', zip], { cwd: unpacking, env });
  if (unpacked.code !== 0 || !existsSync(join(unpacking, `keycloak-${version}/bin/kc.sh`)))
    throw fail(
      new KeycloakRunnerError(
        'KEYCLOAK_DOWNLOAD_FAILED',
        `Unpacking ${zip} failed (exit code ${unpacked.code}):\n${unpacked.output.slice(-2000)}`,
      ),
    );
  // `jar` keeps no file modes
  for (const script of readdirSync(join(unpacking, `keycloak-${version}/bin`)).filter((f) => f.endsWith('.sh')))
    chmodSync(join(unpacking, `keycloak-${version}/bin`, script), 0o755);
  writeFileSync(join(unpacking, `keycloak-${version}`, VERIFIED_STAMP), `${actual}\n`);
  rmSync(home, { recursive: true, force: true });
  renameSync(join(unpacking, `keycloak-${version}`), home);
  rmSync(unpacking, { recursive: true, force: true });
  log(
    `Keycloak ${version} (SHA-512 verified) is in ${relative(process.cwd(), home) || home} (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  return home;
}

/**
 * Puts the realm file where `--import-realm` reads it. Keycloak skips a realm that already exists on import,
 * and creates the bootstrap administrator only in a new database, so when the file or the administrator's
 * password differs from the one of the last import the database is deleted and made again: a fresh import,
 * the bootstrap administrator recreated with `adminPassword`. Returns whether that happened.
 *
 * @param {string} home @param {string} realmFile @param {string} [adminPassword]
 */
function prepareRealmImport(home, realmFile, adminPassword = '') {
  const realm = readFileSync(realmFile);
  const hash = createHash('sha256').update(realm);
  if (adminPassword) hash.update('\0admin password\0').update(adminPassword);
  const digest = hash.digest('hex');
  const stamp = join(home, 'data/imported-realm.sha256');
  const database = join(home, 'data/h2');
  const fresh = !existsSync(database) || !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== digest;
  if (fresh) rmSync(database, { recursive: true, force: true });
  const imports = join(home, 'data/import');
  rmSync(imports, { recursive: true, force: true });
  mkdirSync(imports, { recursive: true });
  copyFileSync(realmFile, join(imports, 'realm.json'));
  return { fresh, markImported: () => writeFileSync(stamp, `${digest}\n`) };
}

/**
 * A cluster node's realm import: `realmFile` where `--import-realm` reads it, or nothing (null: another node
 * imports). The database is the cluster's, so there is no stamp to keep.
 *
 * @param {string} home @param {string | null} realmFile
 */
function prepareClusterImport(home, realmFile) {
  const imports = join(home, 'data/import');
  rmSync(imports, { recursive: true, force: true });
  if (realmFile) {
    mkdirSync(imports, { recursive: true });
    copyFileSync(realmFile, join(imports, 'realm.json'));
  }
  return { fresh: realmFile !== null, markImported: () => {} };
}

/**
 * Puts the realm's login theme (deploy/keycloak/themes/<name>, the realm file's `loginTheme`) where Keycloak reads
 * themes, `<home>/themes`, replacing an earlier copy (decisions/0071). Keycloak in dev mode reads it per request.
 *
 * @param {string} home
 */
function prepareThemes(home) {
  const themes = join(REPO_ROOT, 'deploy/keycloak/themes');
  if (!existsSync(themes)) return;
  for (const name of readdirSync(themes)) {
    rmSync(join(home, 'themes', name), { recursive: true, force: true });
    cpSync(join(themes, name), join(home, 'themes', name), { recursive: true });
  }
}

/** The last `lines` lines of a file, for an error message. @param {string} file @param {number} [lines] */
function tail(file, lines = 25) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * @typedef {object} RunningKeycloak
 * @property {string} url the base URL on loopback, e.g. http://localhost:8080 (config.json's identityProvider.url,
 *   unless behindProxy: then browsers use its publicUrl, and this stays the admin API's and the proxy's address)
 * @property {string} healthUrl the management port's liveness endpoint
 * @property {(realm: string) => string} realmUrl `{url}/realms/{realm}`
 * @property {{ username: string, password: string, passwordFile: string }} admin the bootstrap administrator of
 *   realm `master` (its generated password, and the file that holds it)
 * @property {string} home the Keycloak home in use
 * @property {string} logFile where its output goes (unless `output` was 'inherit')
 * @property {number} startedInMs from the start of the JVM to the realm's discovery answering
 * @property {boolean} freshImport whether the realm was imported into a new database at this start
 * @property {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} exited
 * @property {() => Promise<void>} stop SIGTERM (Keycloak shuts down cleanly), SIGKILL after 15 s
 * @property {() => Promise<void>} kill SIGKILL at once (a node that dies: no clean shutdown), resolves once it is gone
 */

/**
 * @typedef {object} StartOptions
 * @property {string} [dir] where the distribution and its data live (default .keycloak/ in the repository)
 * @property {string} [realmFile] imported at start (default deploy/keycloak/gatehouse-realm.json)
 * @property {string} [realm] the realm whose discovery says "ready" (default gatehouse)
 * @property {number} [httpPort] default 8080
 * @property {number} [managementPort] health endpoints, default 9000
 * @property {'inherit' | 'file'} [output] Keycloak's own log: to this terminal, or to <dir>/keycloak.log (default)
 * @property {number} [timeoutMs] how long to wait for it to be ready (default 5 minutes)
 * @property {(message: string) => void} [log] progress lines (default: stderr, prefixed [keycloak])
 * @property {NodeJS.ProcessEnv} [env] where JAVA_HOME and JAVA_OPTS_KC_HEAP are read (default process.env)
 * @property {BehindProxy} [behindProxy] Keycloak behind a TLS-terminating reverse proxy (deploy/README.md)
 * @property {string} [adminPasswordFile] the administrator's password (default ADMIN_PASSWORD_FILE; adminPassword())
 * @property {ClusterNode} [clusterNode] a node of a cluster on a shared database, in production mode (`kc.sh start`)
 * @property {boolean} [quickStart] the JIT's first tier only (QUICK_START), for a Keycloak that lives for a few
 *   tests; not for one that serves a whole run, nor one whose speed is measured (the bench)
 * @property {string} [buildFrom] another start's `dir`: when `dir` has no distribution built for this start's build
 *   options and that one has (BUILT_STAMP), it is copied (without its data) instead of fetched, unpacked and built
 */

/**
 * A node of a Keycloak cluster as Keycloak's clustering guide runs it: production mode (`kc.sh start`) on a shared
 * PostgreSQL (`--db postgres`), the default distributed caches (`--cache ispn`) and their default `jdbc-ping` stack
 * (the nodes find each other through a table in that database), behind a load balancer that is its public URL. Every
 * port on loopback: HTTP, management, and the node's JGroups port (whose failure detection listens 50,000 above it).
 * `--db` and `--cache` are build options: keep one `dir` per node, and the same options, so it is built once.
 *
 * @typedef {object} ClusterNode
 * @property {string} publicUrl the load balancer, e.g. https://sso.acme.com (or http on localhost, for tests)
 * @property {{ url: string, username: string, password?: string }} database the shared database (a JDBC URL)
 * @property {number} jgroupsPort below 15536 (its failure detection takes jgroupsPort + 50000)
 * @property {boolean} importRealm whether this node imports the realm file (one node does, once, into the new database)
 */

/**
 * Keycloak behind a reverse proxy that ends TLS, as production runs it (hostname v2): `--hostname <publicUrl>`
 * fixes the issuer, endpoints, redirects and cookies, `--proxy-headers xforwarded` trusts the proxy's
 * X-Forwarded-* headers, and `--http-relative-path <relativePath>` serves under a path (the proxied topology,
 * `https://portal.acme.com/auth`). The relative path is a build option: a home started with another one is
 * rebuilt first (tens of seconds), so keep one `dir` per relative path.
 *
 * @typedef {object} BehindProxy
 * @property {string} publicUrl what browsers use, e.g. https://sso.acme.com or https://portal.acme.com:8443/auth
 * @property {string} [relativePath] e.g. "/auth": the path Keycloak serves under; publicUrl's path must end with it
 */

/**
 * The `kc.sh start-dev` arguments for `options`, or a KeycloakRunnerError that says what is wrong.
 *
 * @param {{ httpPort: number, managementPort: number, behindProxy?: BehindProxy }} options
 * @returns {string[]}
 */
function startDevArgs({ httpPort, managementPort, behindProxy }) {
  const args = [
    'start-dev',
    '--import-realm',
    // Both interfaces on loopback: start-dev binds the HTTP port to localhost by default but the management
    // port to every interface (its own default, not inherited).
    `--http-host=${LOOPBACK}`,
    `--http-port=${httpPort}`,
    `--http-management-host=${LOOPBACK}`,
    `--http-management-port=${managementPort}`,
    '--health-enabled=true',
  ];
  if (!behindProxy) return args;
  const { publicUrl, relativePath } = behindProxy;
  /** @param {string} problem */
  const refuse = (problem) => new KeycloakRunnerError('KEYCLOAK_BAD_PROXY_OPTIONS', problem);
  /** @type {URL} */
  let url;
  try {
    url = new URL(publicUrl);
  } catch {
    throw refuse(`behindProxy.publicUrl "${publicUrl}" is not a URL. Give the address browsers use, e.g. "https://sso.acme.com".`);
  }
  if (url.protocol !== 'https:' || url.search || url.hash || publicUrl.endsWith('/'))
    throw refuse(
      `behindProxy.publicUrl "${publicUrl}" must be an https URL without query, fragment or trailing slash, e.g. "https://sso.acme.com".`,
    );
  if (relativePath !== undefined && !/^(\/[A-Za-z0-9._~-]+)+$/.test(relativePath))
    throw refuse(`behindProxy.relativePath "${relativePath}" is not a path. Give e.g. "/auth", or leave it out to serve at the root.`);
  const path = url.pathname === '/' ? '' : url.pathname;
  if (relativePath !== undefined && !path.endsWith(relativePath))
    throw refuse(
      `behindProxy.publicUrl "${publicUrl}" does not end with relativePath "${relativePath}": the proxy passes the path as it is, so both name it.`,
    );
  args.push(`--hostname=${publicUrl}`, '--proxy-headers=xforwarded');
  if (relativePath !== undefined) args.push(`--http-relative-path=${relativePath}`);
  return args;
}

/**
 * The `kc.sh start` arguments of a cluster node (ClusterNode), or a KeycloakRunnerError that says what is wrong.
 *
 * @param {{ httpPort: number, managementPort: number, clusterNode: ClusterNode }} options
 * @returns {string[]}
 */
function clusterNodeArgs({ httpPort, managementPort, clusterNode }) {
  const { publicUrl, database, jgroupsPort, importRealm } = clusterNode;
  /** @type {URL | null} */
  let url = null;
  try {
    url = new URL(publicUrl);
  } catch {
    // refused below
  }
  const loopback = url !== null && ['localhost', '127.0.0.1'].includes(url.hostname);
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) || url.pathname !== '/' || publicUrl.endsWith('/'))
    throw new KeycloakRunnerError(
      'KEYCLOAK_BAD_PROXY_OPTIONS',
      `clusterNode.publicUrl "${publicUrl}" must be the load balancer's https URL (plain http on localhost only), without path or trailing slash, e.g. "https://sso.acme.com".`,
    );
  if (!Number.isInteger(jgroupsPort) || jgroupsPort < 1024 || jgroupsPort > 15535)
    throw new KeycloakRunnerError(
      'KEYCLOAK_BAD_PROXY_OPTIONS',
      `clusterNode.jgroupsPort ${jgroupsPort} must be 1024–15535: JGroups' failure detection listens 50,000 above it.`,
    );
  return [
    'start',
    ...(importRealm ? ['--import-realm'] : []),
    '--db=postgres',
    `--db-url=${database.url}`,
    `--db-username=${database.username}`,
    ...(database.password ? [`--db-password=${database.password}`] : []),
    '--cache=ispn',
    `--cache-embedded-network-bind-address=${LOOPBACK}`,
    `--cache-embedded-network-bind-port=${jgroupsPort}`,
    '--http-enabled=true',
    `--http-host=${LOOPBACK}`,
    `--http-port=${httpPort}`,
    `--http-management-host=${LOOPBACK}`,
    `--http-management-port=${managementPort}`,
    '--health-enabled=true',
    `--hostname=${publicUrl}`,
    '--proxy-headers=xforwarded',
  ];
}

/** A started distribution's note of the build options it was built for (buildKey). */
const BUILT_STAMP = '.gatehouse-built-for';

/**
 * The build options of a start: what Keycloak builds its distribution for (tens of seconds, at the first start and
 * whenever they change; `kc.sh show-config` lists them). Two starts with the same key can share one build.
 *
 * @param {StartOptions} options
 */
function buildKey({ clusterNode, behindProxy }) {
  if (clusterNode) return 'start db=postgres cache=ispn health-enabled';
  return `start-dev health-enabled${behindProxy?.relativePath ? ` http-relative-path=${behindProxy.relativePath}` : ''}`;
}

/**
 * Copies the distribution in `fromDir` into `dir` when that one was started with build options `key` and the one
 * in `dir` was not (or is missing): its database and other data stay behind. Keycloak itself checks the build at
 * start and builds again if the options differ, so a copy can cost time, never correctness.
 *
 * @param {string} fromDir @param {string} dir @param {string} key
 */
function copyBuiltDistribution(fromDir, dir, key) {
  const name = `keycloak-${KEYCLOAK_VERSION}`;
  const builtFor = (/** @type {string} */ home) =>
    existsSync(join(home, BUILT_STAMP)) ? readFileSync(join(home, BUILT_STAMP), 'utf8').trim() : null;
  const [source, target] = [join(resolve(fromDir), name), join(dir, name)];
  if (source === target || builtFor(source) !== key || builtFor(target) === key) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(source, target, { recursive: true, filter: (path) => !path.startsWith(join(source, 'data')) });
}

/**
 * Sets the nice value of every process and thread of a process group (`renice -g`: the JVM's threads too). Raising a
 * priority again needs root or CAP_SYS_NICE; without it the group keeps the lower one, which is said once.
 *
 * @param {number | undefined} pgid @param {number} nice @param {(line: string) => void} log
 */
function reniceGroup(pgid, nice, log) {
  if (pgid === undefined) return;
  const result = spawnSync('renice', ['-n', String(nice), '-g', String(pgid)], { encoding: 'utf8' });
  if (result.status !== 0)
    log(`could not set the start-up's priority to nice ${nice} (${(result.stderr || String(result.error)).trim()}); it runs on as it is`);
}

/**
 * Starts Keycloak (fetching it first if needed) with the realm imported, the bootstrap administrator and the
 * health endpoints on, and resolves once the realm's discovery document answers. Throws a KeycloakRunnerError
 * (or the JavaNotFoundError of findJava) that says what to do when it cannot.
 *
 * @param {StartOptions} [options]
 * @returns {Promise<RunningKeycloak>}
 */
async function startKeycloak(options = {}) {
  const { realm = 'gatehouse', httpPort = 8080, managementPort = 9000, output = 'file', timeoutMs = 300_000 } = options;
  const log = options.log ?? defaultLog;
  const env = options.env ?? process.env;
  const dir = resolve(options.dir ?? join(REPO_ROOT, '.keycloak'));
  const { clusterNode } = options;
  const args = clusterNode
    ? clusterNodeArgs({ httpPort, managementPort, clusterNode })
    : startDevArgs({ httpPort, managementPort, behindProxy: options.behindProxy });
  const url = `http://localhost:${httpPort}${options.behindProxy?.relativePath ?? ''}`;
  // The management interface takes the relative path too (http-management-relative-path defaults to it).
  const healthUrl = `http://localhost:${managementPort}${options.behindProxy?.relativePath ?? ''}/health/live`;
  const discovery = `${url}/realms/${realm}/.well-known/openid-configuration`;

  const java = findJava({ env });
  for (const port of [httpPort, managementPort]) {
    if (await answers(`http://localhost:${port}/`, { accept: () => true }))
      throw new KeycloakRunnerError(
        'KEYCLOAK_PORT_TAKEN',
        `Port ${port} already answers (the dev identity provider, \`npm start\`, or another Keycloak?). Stop what listens there, then run the command again.`,
      );
  }
  mkdirSync(dir, { recursive: true });
  const built = buildKey(options);
  if (options.buildFrom) copyBuiltDistribution(options.buildFrom, dir, built);
  const home = await obtainKeycloak({ dir, log, env });
  const admin = adminPassword(options.adminPasswordFile);
  if (admin.generated)
    log(`generated the administrator's password into ${relative(process.cwd(), admin.file) || admin.file} (mode 0600): ${admin.password}`);
  // A cluster node's database is the cluster's (new for each cluster): only the node that imports needs the file.
  const { fresh, markImported } = clusterNode
    ? prepareClusterImport(home, clusterNode.importRealm ? (options.realmFile ?? REALM_FILE) : null)
    : prepareRealmImport(home, options.realmFile ?? REALM_FILE, admin.password);
  prepareThemes(home);

  const logFile = join(dir, 'keycloak.log');
  const logFd = output === 'file' ? openSync(logFile, 'w') : null;
  log(
    `starting Keycloak ${KEYCLOAK_VERSION} with Java ${java.major} (${java.home})${fresh ? ', importing the realm into a new database' : ''}${logFd === null ? '' : `; log: ${relative(process.cwd(), logFile)}`}`,
  );
  const started = Date.now();
  const server = startProcess(join(home, 'bin/kc.sh'), args, {
    cwd: home,
    stdio: logFd === null ? ['ignore', 'inherit', 'inherit'] : ['ignore', logFd, logFd],
    env: {
      ...env,
      JAVA_HOME: java.home,
      JAVA_OPTS_KC_HEAP: env.JAVA_OPTS_KC_HEAP ?? DEFAULT_HEAP,
      ...(options.quickStart ? { JAVA_OPTS_APPEND: [env.JAVA_OPTS_APPEND, QUICK_START].filter(Boolean).join(' ') } : {}),
      KC_BOOTSTRAP_ADMIN_USERNAME: ADMIN_USERNAME,
      KC_BOOTSTRAP_ADMIN_PASSWORD: admin.password,
    },
  });
  if (logFd !== null) closeSync(logFd);
  // GATEHOUSE_KEYCLOAK_START_NICE=<n>: the start-up (a JVM's minutes of CPU on a busy machine) runs at nice n, and the
  // server at the usual priority once ready, so a Keycloak starting beside timed tests does not starve the Keycloak
  // those tests use (test:keycloak sets it for the suites that start their own, decisions/0080).
  const startNice = Number(env.GATEHOUSE_KEYCLOAK_START_NICE ?? 0);
  if (startNice > 0) reniceGroup(server.child.pid, startNice, log);
  const removeExitHook = killOnExit(() => [server.child]);
  const stop = async () => {
    await server.stop(15_000);
    removeExitHook();
  };
  const kill = async () => {
    signalGroup(server.child, 'SIGKILL');
    await server.exited;
    removeExitHook();
  };

  const done = heartbeat(log, 'still starting');
  try {
    await waitForUrl(healthUrl, { child: server.child, timeoutMs, name: 'Keycloak', intervalMs: 500 });
    await waitForUrl(discovery, {
      child: server.child,
      timeoutMs: Math.max(1000, timeoutMs - (Date.now() - started)),
      name: 'Keycloak',
      intervalMs: 250,
    });
  } catch (error) {
    const exited = server.child.exitCode !== null || server.child.signalCode !== null;
    await stop();
    throw new KeycloakRunnerError(
      exited ? 'KEYCLOAK_EXITED' : 'KEYCLOAK_NOT_READY',
      `${/** @type {Error} */ (error).message}${logFd === null ? '' : `\nThe end of ${logFile}:\n${tail(logFile)}`}`,
    );
  } finally {
    done();
  }
  if (startNice > 0) reniceGroup(server.child.pid, 0, log);
  if (fresh) markImported();
  writeFileSync(join(home, BUILT_STAMP), `${built}\n`);
  const startedInMs = Date.now() - started;
  log(
    `ready in ${(startedInMs / 1000).toFixed(1)} s on ${url}${options.behindProxy ? ` as ${options.behindProxy.publicUrl}` : ''} (realm "${realm}"; admin "${ADMIN_USERNAME}", password in ${relative(process.cwd(), admin.file) || admin.file}; health ${healthUrl})`,
  );
  return {
    url,
    healthUrl,
    realmUrl: (name) => `${url}/realms/${name}`,
    admin: { username: ADMIN_USERNAME, password: admin.password, passwordFile: admin.file },
    home,
    logFile,
    startedInMs,
    freshImport: fresh,
    exited: server.exited,
    stop,
    kill,
  };
}

/**
 * The demo realm file's step-up, as it is, for a test realm made through the admin API: the levels
 * (`acr.loa.map`: a password is silver, step-up gold) and the browser flow that asks for them (Keycloak's default
 * flow answers `acr_values=gold` with silver; the dev provider reads the same fields).
 *
 * @returns {Pick<import('@keycloak/keycloak-admin-client/lib/defs/realmRepresentation').default,
 *   'attributes' | 'browserFlow' | 'authenticationFlows' | 'authenticatorConfig'>}
 */
function stepUpOfTheRealmFile() {
  const { attributes, browserFlow, authenticationFlows, authenticatorConfig } = JSON.parse(readFileSync(REALM_FILE, 'utf8'));
  return { attributes, browserFlow, authenticationFlows, authenticatorConfig };
}

/**
 * The identity provider the browser suites run against: `dev` (the embedded provider, the default) or
 * `keycloak`, from GATEHOUSE_IDP (`npm run test:keycloak` sets it).
 *
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {'dev' | 'keycloak'}
 */
function chosenProvider(env = process.env) {
  const value = env.GATEHOUSE_IDP || 'dev';
  if (value !== 'dev' && value !== 'keycloak')
    throw new Error(`GATEHOUSE_IDP is "${value}"; set it to "dev" (the embedded provider, the default) or "keycloak", or unset it.`);
  return value;
}

/**
 * Keycloak on :8080 for a suite that runs on its own (`GATEHOUSE_IDP=keycloak npx playwright test …`): the one
 * already answering (`npm run test:keycloak` starts one for all its suites), else one started now, with its log
 * in .keycloak/keycloak.log. `stop` stops only what was started here.
 *
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
async function keycloakUnlessRunning() {
  const url = 'http://localhost:8080';
  if (await answers(`${url}/realms/gatehouse/.well-known/openid-configuration`)) return { url, stop: async () => {} };
  const keycloak = await startKeycloak();
  return { url: keycloak.url, stop: keycloak.stop };
}

module.exports = {
  KEYCLOAK_VERSION,
  BUILT_STAMP,
  buildKey,
  copyBuiltDistribution,
  KEYCLOAK_SHA512,
  ADMIN_USERNAME,
  ADMIN_PASSWORD_FILE,
  adminPassword,
  startKeycloak,
  startDevArgs,
  clusterNodeArgs,
  obtainKeycloak,
  prepareRealmImport,
  KeycloakRunnerError,
  chosenProvider,
  keycloakUnlessRunning,
  stepUpOfTheRealmFile,
};
