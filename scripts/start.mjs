#!/usr/bin/env node
// `npm start`: the dev identity provider, the shell and every remote with their dev servers, in one
// terminal. `npm start -- --idp keycloak` runs a real Keycloak 26 (scripts/keycloak.mjs) instead of the dev
// identity provider. Says as each part comes up ("identity provider ready", "shell ready on …", "2/3 remotes
// ready"), then prints the addresses and the demo users; Ctrl-C stops it all (each app runs in its own
// process group, which is stopped as a whole: npm → sh → webpack → workers).
//
// `npm start` runs scripts/preflight.mjs first, which installs the packages on a fresh clone.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYCLOAK_VERSION } from '../tooling/testkit/src/keycloak.cjs';
import { answers, killOnExit, startProcess, stopProcess } from '../tooling/testkit/src/processes.cjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const USAGE = 'usage: npm start [-- --idp dev|keycloak]   (dev: the embedded provider, the default; keycloak: Keycloak 26 from Maven)';

/**
 * The identity provider `--idp` names: `dev` (the embedded one, default) or `keycloak`.
 *
 * @param {readonly string[]} argv
 * @returns {'dev' | 'keycloak'}
 */
function providerChoice(argv) {
  let idp = 'dev';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--idp') idp = argv[++i] ?? '';
    else if (arg.startsWith('--idp=')) idp = arg.slice('--idp='.length);
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else {
      console.error(`unknown option ${arg}\n${USAGE}`);
      process.exit(2);
    }
  }
  if (idp !== 'dev' && idp !== 'keycloak') {
    console.error(`--idp must be dev or keycloak, not "${idp}".\n${USAGE}`);
    process.exit(2);
  }
  return idp;
}

const IDP = providerChoice(process.argv.slice(2));

/**
 * One app `npm start` runs: `npm <args>` in the repository.
 *
 * @typedef {object} App
 * @property {string} name
 * @property {string[]} args
 * @property {string} ready the address that answers once it is ready
 * @property {'identity provider' | 'shell' | 'remote'} kind
 * @property {string} [port] a remote's dev port
 */

/**
 * What runs, and the address that answers once it is ready.
 *
 * @type {App[]}
 */
export const APPS = [
  {
    name: IDP === 'keycloak' ? 'keycloak' : 'idp',
    // Keycloak's own log stays in .keycloak/keycloak.log; its progress (fetching, starting) shows here.
    args: IDP === 'keycloak' ? ['run', '--silent', 'keycloak', '--', '--quiet'] : ['run', 'idp'],
    ready: 'http://localhost:8080/realms/gatehouse/.well-known/openid-configuration',
    kind: 'identity provider',
  },
  { name: 'shell', args: ['start', '-w', '@gatehouse/shell'], ready: 'http://localhost:3000/config.json', kind: 'shell' },
  ...discoverRemotes(),
];

/**
 * Every folder of remotes/ with a package.json and a dev port (`port: 3001` in its webpack.config.ts),
 * so a remote made with `npm run new-remote` starts without editing this file.
 *
 * @returns {App[]}
 */
function discoverRemotes() {
  const dir = join(root, 'remotes');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'package.json')))
    .flatMap((entry) => remoteApp(dir, entry.name))
    .sort((a, b) => Number(a.port) - Number(b.port));
}

/**
 * The remote in remotes/<name>, or none when its webpack.config.ts names no dev port.
 *
 * @param {string} dir remotes/ @param {string} name
 * @returns {App[]}
 */
function remoteApp(dir, name) {
  const pkg = JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8'));
  const config = join(dir, name, 'webpack.config.ts');
  const port = existsSync(config) ? /\bport:\s*(\d+)/.exec(readFileSync(config, 'utf8'))?.[1] : undefined;
  if (!port) return [];
  return [{ name, args: ['start', '-w', pkg.name], ready: `http://localhost:${port}/mf-manifest.json`, port, kind: 'remote' }];
}

const COLORS = [35, 36, 32, 33, 34];
/** @type {Map<string, import('../tooling/testkit/src/processes.cjs').ManagedProcess>} */
const running = new Map();
let stopping = false;
killOnExit(() => [...running.values()].map((app) => app.child));

/** @param {string} message */
function progress(message) {
  process.stdout.write(`\x1b[1m▸ ${message}\x1b[0m\n`);
}

/**
 * @param {string} name @param {number} color
 * @param {NodeJS.ReadableStream} stream @param {NodeJS.WritableStream} target
 */
function prefixLines(name, color, stream, target) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) target.write(`\x1b[${color}m${name.padEnd(8)}\x1b[0m| ${line}\n`);
  });
}

/** @param {App} app @param {number} index */
function startApp(app, index) {
  const started = startProcess('npm', app.args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
  });
  running.set(app.name, started);
  const color = COLORS[index % COLORS.length] ?? 0;
  if (started.child.stdout) prefixLines(app.name, color, started.child.stdout, process.stdout);
  if (started.child.stderr) prefixLines(app.name, color, started.child.stderr, process.stderr);
  void started.exited.then(({ code, signal }) => {
    running.delete(app.name);
    if (stopping) return;
    console.error(`\n${app.name} stopped (${signal ?? `exit code ${code}`}); stopping everything.`);
    void stop(1);
  });
}

/** Stops every app's process tree (SIGTERM, SIGKILL after 3 s) and exits with `code`. */
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  await Promise.all([...running.values()].map((app) => stopProcess(app.child, 3000)));
  process.exit(code);
}

/** What "ready" sounds like for each kind of app. @param {App} app @param {number} remotesReady @param {number} remotesTotal */
function readyMessage(app, remotesReady, remotesTotal) {
  if (app.kind === 'identity provider')
    return `${IDP === 'keycloak' ? 'Keycloak' : 'identity provider'} ready on ${new URL(app.ready).origin}`;
  if (app.kind === 'shell') return `shell ready on ${new URL(app.ready).origin}`;
  return `${remotesReady}/${remotesTotal} remotes ready (${app.name} on ${new URL(app.ready).origin})`;
}

/** Polls every app until it answers, announcing each as it comes up. */
async function waitForAll(timeoutMs = IDP === 'keycloak' ? 420_000 : 180_000) {
  const pending = new Set(APPS);
  const remotesTotal = APPS.filter((app) => app.kind === 'remote').length;
  let remotesReady = 0;
  const started = Date.now();
  while (pending.size > 0 && !stopping) {
    const answered = await Promise.all([...pending].map(async (app) => ((await answers(app.ready)) ? app : null)));
    for (const app of answered) {
      if (!app || stopping) continue;
      pending.delete(app);
      if (app.kind === 'remote') remotesReady += 1;
      progress(readyMessage(app, remotesReady, remotesTotal));
    }
    if (pending.size === 0) return true;
    if (Date.now() - started > timeoutMs) {
      console.error(`Still waiting for: ${[...pending].map((a) => `${a.name} (${a.ready})`).join(', ')}`);
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return pending.size === 0;
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));

// Something already answering (say, an identity provider you started yourself) is used, not started twice.
progress(
  `starting ${IDP === 'keycloak' ? `Keycloak ${KEYCLOAK_VERSION}` : 'the identity provider'}, the shell and ${APPS.filter((app) => app.kind === 'remote').length} remotes (the first build takes a minute)`,
);
for (const [index, app] of APPS.entries()) {
  if (await answers(app.ready)) console.log(`${app.name} is already running (${new URL(app.ready).origin}); using it.`);
  else startApp(app, index);
}

if (await waitForAll()) {
  console.log(`
  Gatehouse is running.

    shell              http://localhost:3000
${APPS.filter((app) => app.port)
  .map((app) => `    ${`remote ${app.name}`.padEnd(18)} http://localhost:${app.port}   (standalone)\n`)
  .join(
    '',
  )}    identity provider  http://localhost:8080   (realm "gatehouse"${IDP === 'keycloak' ? `; Keycloak ${KEYCLOAK_VERSION}, admin console http://localhost:8080/admin/ as admin / admin` : ''})

  Demo users (password = username):
    alice / alice   Alice Anders   realm roles user, admin · client role reports/viewer
    bob   / bob     Bob Brown      realm role user
    carol / carol   Carol Chen     realm role user · client role reports/viewer

  Sign in: open http://localhost:3000 and press "Sign in", e.g. as alice / alice.
  Press Ctrl-C to stop everything.
`);
}
