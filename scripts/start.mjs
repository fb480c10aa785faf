#!/usr/bin/env node
// `npm start`: the dev identity provider, the shell and every remote with their dev servers, and the demo API
// (:3010, demo-api/), in one terminal. `npm start -- --idp keycloak` runs a real Keycloak 26 (scripts/keycloak.mjs) instead of the dev
// identity provider. Says as each part comes up ("identity provider ready", "shell ready on …", "2/3 remotes
// ready"), then prints the addresses and the demo users; Ctrl-C stops it all (each app runs in its own
// process group, which is stopped as a whole: npm → sh → webpack → workers).
//
// An app that stops or crashes is started again with a doubling pause, and one that keeps stopping soon after
// it starts is given up on with its last output; the others keep running (tooling/testkit/src/supervisor.ts,
// decisions/0048). A port that another process holds is reported, with that process, before anything starts.
//
// `npm start` runs scripts/preflight.mjs first, which installs the packages on a fresh clone.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYCLOAK_VERSION } from '@gatehouse/testkit/keycloak';
import { takenPortProblem } from '@gatehouse/testkit/leftovers';
import { answers } from '@gatehouse/testkit/processes';
import { stopOnSignals, supervise } from '@gatehouse/testkit/supervisor';

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
 * @property {'identity provider' | 'shell' | 'remote' | 'api' | 'events'} kind
 * @property {number[]} ports the ports it listens on
 * @property {string} alone how to run it alone, for when `npm start` gave up on it
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
    // 9000: the management port (health), Keycloak's and the dev provider's
    ports: [8080, 9000],
    alone: IDP === 'keycloak' ? 'npm run keycloak' : 'npm run idp',
  },
  {
    name: 'demo-api',
    // Verifies tokens of the realm at http://localhost:8080, the dev provider's or Keycloak's (decisions/0055).
    args: ['start', '-w', '@gatehouse/demo-api'],
    ready: 'http://localhost:3010/health',
    kind: 'api',
    ports: [3010],
    alone: 'npm start -w @gatehouse/demo-api',
  },
  {
    name: 'session-events',
    // Takes the provider's back-channel logout tokens (the realm's gatehouse-shell posts to :3020) and streams a
    // session's end to the shell's leading tab (decisions/0118).
    args: ['start', '-w', '@gatehouse/session-events'],
    ready: 'http://localhost:3020/health',
    kind: 'events',
    ports: [3020],
    alone: 'npm start -w @gatehouse/session-events',
  },
  {
    name: 'shell',
    args: ['start', '-w', '@gatehouse/shell'],
    ready: 'http://localhost:3000/config.json',
    kind: 'shell',
    ports: [3000],
    alone: 'npm start -w @gatehouse/shell',
  },
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
  return [
    {
      name,
      args: ['start', '-w', pkg.name],
      ready: `http://localhost:${port}/mf-manifest.json`,
      port,
      ports: [Number(port)],
      kind: 'remote',
      alone: `npm start -w ${pkg.name}`,
    },
  ];
}

const COLORS = [35, 36, 32, 33, 34];
/** @type {Map<string, import('@gatehouse/testkit/supervisor').Supervised>} */
const running = new Map();
stopOnSignals(() => running.values());

/** @param {string} message */
function progress(message) {
  process.stdout.write(`\x1b[1m▸ ${message}\x1b[0m\n`);
}

/** @param {App} app @param {number} index */
function startApp(app, index) {
  const color = COLORS[index % COLORS.length] ?? 0;
  const prefix = `\x1b[${color}m${app.name.padEnd(8)}\x1b[0m| `;
  const origin = new URL(app.ready).origin;
  const supervised = supervise(app.name, 'npm', app.args, {
    spawnOptions: { cwd: root, env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } },
    output: (line, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(`${prefix}${line}\n`),
    log: (line) => process.stderr.write(`\x1b[1m▸ ${line}\x1b[0m\n`),
    giveUpHint: `Fix what its output says, then run it alone in another terminal with \`${app.alone}\` (the shell finds it on ${origin} again), or restart \`npm start\`.`,
    readyUrl: app.ready,
    onReady: (restarted) => restarted && progress(`${app.name} is back on ${origin}`),
  });
  running.set(app.name, supervised);
}

/**
 * Every port that an app about to start needs and another process holds, said with its owner.
 *
 * @param {App[]} apps
 * @returns {Promise<string[]>}
 */
async function takenPorts(apps) {
  const checks = apps.flatMap((app) =>
    app.ports.map((port) => takenPortProblem(port, app.kind === 'remote' ? `the remote ${app.name}` : `the ${app.name}`)),
  );
  return (await Promise.all(checks)).filter((problem) => problem !== null);
}

/** What "ready" sounds like for each kind of app. @param {App} app @param {number} remotesReady @param {number} remotesTotal */
function readyMessage(app, remotesReady, remotesTotal) {
  if (app.kind === 'identity provider')
    return `${IDP === 'keycloak' ? 'Keycloak' : 'identity provider'} ready on ${new URL(app.ready).origin}`;
  if (app.kind === 'shell') return `shell ready on ${new URL(app.ready).origin}`;
  if (app.kind === 'api') return `demo API ready on ${new URL(app.ready).origin}`;
  if (app.kind === 'events') return `session events ready on ${new URL(app.ready).origin}`;
  return `${remotesReady}/${remotesTotal} remotes ready (${app.name} on ${new URL(app.ready).origin})`;
}

/** Polls every app until it answers, announcing each as it comes up. */
async function waitForAll(timeoutMs = IDP === 'keycloak' ? 420_000 : 180_000) {
  const pending = new Set(APPS);
  const remotesTotal = APPS.filter((app) => app.kind === 'remote').length;
  let remotesReady = 0;
  const started = Date.now();
  while (pending.size > 0) {
    for (const app of pending) if (running.get(app.name)?.state() === 'given up') pending.delete(app);
    const answered = await Promise.all([...pending].map(async (app) => ((await answers(app.ready)) ? app : null)));
    for (const app of answered) {
      if (!app) continue;
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

// Something already answering (say, an identity provider you started yourself) is used, not started twice.
/** @type {App[]} */
const toStart = [];
for (const app of APPS) {
  if (await answers(app.ready)) console.log(`${app.name} is already running (${new URL(app.ready).origin}); using it.`);
  else toStart.push(app);
}
// Anything else on a port would make its app fail at once, among everyone's output.
const taken = await takenPorts(toStart);
if (taken.length > 0) {
  console.error(`Cannot start: ${taken.length === 1 ? 'a port is' : 'ports are'} taken.\n${taken.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
progress(
  `starting ${IDP === 'keycloak' ? `Keycloak ${KEYCLOAK_VERSION}` : 'the identity provider'}, the demo API, session events, the shell and ${APPS.filter((app) => app.kind === 'remote').length} remotes (the first build takes a minute)`,
);
for (const [index, app] of APPS.entries()) if (toStart.includes(app)) startApp(app, index);

if (await waitForAll()) {
  const givenUp = [...running.values()].filter((app) => app.state() === 'given up').map((app) => app.name);
  console.log(`
  Gatehouse is running${givenUp.length > 0 ? `, without ${givenUp.join(', ')} (given up on: see its output above)` : ''}.

    shell              http://localhost:3000
${APPS.filter((app) => app.port)
  .map((app) => `    ${`remote ${app.name}`.padEnd(18)} http://localhost:${app.port}   (standalone)\n`)
  .join('')}    demo API           http://localhost:3010   (/profile, /admin, /reports: each for a token of its own audience alone)
    session events     http://localhost:3020   (a sign-out anywhere ends every open page of that session at once)
    identity provider  http://localhost:8080   (realm "gatehouse"${IDP === 'keycloak' ? `; Keycloak ${KEYCLOAK_VERSION}, admin console http://localhost:8080/admin/ as admin, password in .keycloak/admin-password` : ''})

  Demo users (password = username):
    alice / alice   Alice Anders   realm roles user, admin · client role reports/viewer
    bob   / bob     Bob Brown      realm role user
    carol / carol   Carol Chen     realm role user · client role reports/viewer

  Sign in: open http://localhost:3000 and press "Sign in", e.g. as alice / alice.
  Press Ctrl-C to stop everything.
`);
}
