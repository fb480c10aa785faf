#!/usr/bin/env node
// `npm run preview`: serves the production builds the way production does — real nginx, each app
// on its own origin (shell :4000, remotes from the registry in deploy/config/config.preview.json:
// profile :4001, admin :4002, reports :4003) — plus the dev identity provider on :8080, the demo
// API on :4010 (demo-api/, decisions/0055) and session events on :3020 (session-events/, decisions/0118).
// Ctrl-C stops everything.
//
// nginx runs unprivileged from .preview/ (gitignored): generated nginx.conf with `daemon off`,
// pid, temp and log paths inside .preview/, errors on stderr. The server blocks are rendered from
// deploy/nginx/*.template by deploy/nginx/render.mjs — the files a deployment uses.
//
// Also importable: `startPreview(options)` is what the production browser tests (e2e/production)
// use to start the topology with a different config.json or remote folders.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takenPortProblem } from '@gatehouse/testkit/leftovers';
import { checkNginxConfig, findMimeTypes, requireNginx, workerUserFor } from '@gatehouse/testkit/nginx';
import { answers, killOnExit, notAServerError, startProcess, stopWhenOrphaned, waitForUrl } from '@gatehouse/testkit/processes';
import { assertValidInput, remotesOf } from '@gatehouse/config';
import { renderDeployment, renderTemplate, writeFiles, TEMPLATE_DIR } from '../deploy/nginx/render.mjs';
import { LOCAL_RELEASE_KEY_FILE, localPublicKey, pinLocalKey, signerOf } from './releaseKey.cjs';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PREVIEW_CONFIG = join(REPO_ROOT, 'deploy/config/config.preview.json');
const SHELL_PORT = 4000;
/** The demo API of the production topology (dev: 3010). */
export const DEMO_API_PORT = 4010;
/**
 * The session-events service: :3020 as under `npm start`, where the realm file's gatehouse-shell posts its back-channel
 * logout (one realm for both; they cannot run at once anyway, both needing the provider's :8080).
 */
export const SESSION_EVENTS_PORT = 3020;

/** @typedef {import('@gatehouse/testkit/processes').ManagedProcess} ManagedProcess */
/** @typedef {import('../deploy/nginx/render.mjs').ShellConfig} ShellConfig */

/** @param {string} message */
function log(message) {
  process.stderr.write(`[preview] ${message}\n`);
}

/**
 * The children's output: all of it, or with `quiet` only their errors.
 *
 * @param {boolean | undefined} quiet
 * @returns {import('node:child_process').StdioOptions}
 */
function forwardedOutput(quiet) {
  return quiet ? ['ignore', 'ignore', 'inherit'] : ['ignore', 'inherit', 'inherit'];
}

/**
 * Starts the dev identity provider (`npm run idp`, :8080) unless something already answers at the
 * configured provider's discovery URL. Resolves to null when nothing was started (already running,
 * or a provider that is not on this machine).
 *
 * @param {{ url: string, realm: string }} identityProvider from config.json
 * @param {{ quiet?: boolean }} [options]
 * @returns {Promise<null | ManagedProcess>}
 */
export async function startIdentityProvider(identityProvider, options = {}) {
  const discovery = `${identityProvider.url.replace(/\/$/, '')}/realms/${identityProvider.realm}/.well-known/openid-configuration`;
  if (await answers(discovery, { accept: notAServerError })) {
    log(`identity provider already answers at ${identityProvider.url}; using it`);
    return null;
  }
  if (new URL(identityProvider.url).hostname !== 'localhost') {
    log(`warning: ${identityProvider.url} does not answer; the shell will show its sign-in error`);
    return null;
  }
  log('starting the dev identity provider (npm run idp)');
  const idp = startProcess('npm', ['run', '--silent', 'idp'], { cwd: REPO_ROOT, stdio: forwardedOutput(options.quiet) });
  try {
    await waitForUrl(discovery, { timeoutMs: 60_000, child: idp.child, name: 'the dev identity provider', accept: notAServerError });
  } catch (error) {
    await idp.stop();
    throw error;
  }
  return idp;
}

/** Services this process started (the demo API, session events), stopped on shutdown even while one is still starting. @type {Set<ManagedProcess>} */
const services = new Set();

/**
 * Starts a Node service of this repository (`args`: its bin and options) and resolves once `health` answers; one that
 * does not answer within 30 s is stopped, and the error says which.
 *
 * @param {string[]} args @param {{ health: string, name: string, quiet?: boolean }} options
 * @returns {Promise<ManagedProcess>}
 */
async function startService(args, { health, name, quiet }) {
  const service = startProcess(process.execPath, args, { cwd: REPO_ROOT, stdio: forwardedOutput(quiet) });
  services.add(service);
  void service.exited.then(() => services.delete(service));
  try {
    await waitForUrl(health, { timeoutMs: 30_000, child: service.child, name });
  } catch (error) {
    await service.stop();
    throw error;
  }
  return service;
}

/**
 * Starts the demo API on :4010 (demo-api/: one path per remote, each for a token of its own audience) unless it
 * already answers, verifying tokens of the configured provider's realm and answering CORS for the shell's origin and
 * every remote's of the registry. Resolves to null when one already answers.
 *
 * @param {ShellConfig} config
 * @param {{ quiet?: boolean, shellOrigin?: string }} [options]
 * @returns {Promise<null | ManagedProcess>}
 */
export async function startDemoApi(config, options = {}) {
  const health = `http://localhost:${DEMO_API_PORT}/health`;
  if (await answers(health)) {
    log(`the demo API already answers on :${DEMO_API_PORT}; using it`);
    return null;
  }
  const issuer = `${config.identityProvider.url.replace(/\/$/, '')}/realms/${config.identityProvider.realm}`;
  const origins = [
    options.shellOrigin ?? `http://localhost:${SHELL_PORT}`,
    ...remotesOf(config).flatMap((r) => (r.origin ? [r.origin] : [])),
  ];
  const args = [join(REPO_ROOT, 'demo-api/bin/gatehouse-demo-api.mjs'), '--port', String(DEMO_API_PORT), '--issuer', issuer];
  args.push('--origins', [...new Set(origins)].join(','), ...(options.quiet ? ['--quiet'] : []));
  log(`starting the demo API on :${DEMO_API_PORT} (tokens of ${issuer})`);
  return startService(args, { health, name: 'the demo API', quiet: options.quiet });
}

/**
 * Starts the session-events service on :3020 (session-events/: the provider's back-channel logout in, the shell's
 * stream out) when config.json names it there, unless it already answers. Resolves to null when nothing was started.
 *
 * @param {ShellConfig & { sessionEvents?: { url: string } }} config
 * @param {{ quiet?: boolean, shellOrigin: string }} options
 * @returns {Promise<null | ManagedProcess>}
 */
export async function startSessionEventsService(config, options) {
  const url = config.sessionEvents?.url;
  if (url === undefined) return null;
  const health = `http://localhost:${SESSION_EVENTS_PORT}/health`;
  if (new URL(url).origin !== `http://localhost:${SESSION_EVENTS_PORT}`) {
    log(`config.json names session events at ${url}, not on this machine's :${SESSION_EVENTS_PORT}; not started here`);
    return null;
  }
  if (await answers(health)) {
    log(`session events already answer on :${SESSION_EVENTS_PORT}; using them`);
    return null;
  }
  const issuer = `${config.identityProvider.url.replace(/\/$/, '')}/realms/${config.identityProvider.realm}`;
  const args = [join(REPO_ROOT, 'session-events/bin/gatehouse-session-events.mjs'), '--port', String(SESSION_EVENTS_PORT)];
  args.push('--issuer', issuer, '--origins', options.shellOrigin, '--public-url', url.replace(/\/+$/, ''));
  if (options.quiet) args.push('--quiet');
  log(`starting session events on :${SESSION_EVENTS_PORT} (back-channel logout of ${issuer})`);
  return startService(args, { health, name: 'session events', quiet: options.quiet });
}

/**
 * Decides which remotes this preview serves: every registry entry whose manifest URL is on this
 * machine (localhost) and whose build exists in remotes/<name>/dist. The port comes from the
 * manifest URL, so the registry and the listening ports cannot disagree.
 *
 * @param {ShellConfig} config
 * @param {Readonly<Record<string, string | null>>} [remoteRoots] see startPreview
 * @returns {Array<{ name: string, listen: string, serverName: string, root: string }>}
 */
function localRemotes(config, remoteRoots) {
  return remotesOf(config).flatMap(({ name, manifestUrl, origin }) => {
    if (origin === null) return []; // served by the shell's own origin
    const url = new URL(manifestUrl);
    if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') return [];
    const override = remoteRoots?.[name];
    const root = override === undefined ? join(REPO_ROOT, 'remotes', name, 'dist') : override;
    if (root === null) return []; // the caller wants this remote down
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return [{ name, listen: port, serverName: url.hostname, root }];
  });
}

/**
 * What startPreview serves, and how.
 *
 * @typedef {object} PreviewOptions
 * @property {string} [configFile]   the shell's /config.json (default deploy/config/config.preview.json)
 * @property {string} [previewDir]   work folder for nginx (default .preview/)
 * @property {string} [shellRoot]    the shell build (default shell/dist)
 * @property {Record<string, string|null>} [remoteRoots] per remote: another build folder, or
 *   null to leave that remote's server out (the remote is "down")
 * @property {boolean} [identityProvider] start the dev identity provider if it is not running
 *   (default true)
 * @property {boolean} [quiet] forward only the error output of nginx and the provider
 * @property {number} [shellPort] the shell's port (default 4000; a test on a free port passes its own)
 */

/**
 * Starts nginx (and, unless one already answers, the dev identity provider) for the production
 * builds. Resolves once every server answers.
 *
 * @param {PreviewOptions} [options]
 * @returns {Promise<{ stop(): Promise<void>, exited: Promise<string>, urls: Record<string,string> }>}
 */
export async function startPreview(options = {}) {
  const configFile = resolve(options.configFile ?? PREVIEW_CONFIG);
  const previewDir = resolve(options.previewDir ?? join(REPO_ROOT, '.preview'));
  const shellRoot = resolve(options.shellRoot ?? join(REPO_ROOT, 'shell/dist'));
  const shellPort = options.shellPort ?? SHELL_PORT;
  const shellOrigin = `http://localhost:${shellPort}`;

  // The config may be deliberately broken (tests of the "invalid config" page): then the CSP
  // is derived from the default preview config, which names the same origins.
  /** @type {ShellConfig} */
  let config;
  try {
    config = JSON.parse(readFileSync(configFile, 'utf8'));
    assertValidInput(config);
  } catch {
    config = JSON.parse(readFileSync(PREVIEW_CONFIG, 'utf8'));
  }

  if (!existsSync(join(shellRoot, 'index.html'))) {
    throw new Error(`No shell build in ${shellRoot}. Run \`npm run build\` first.`);
  }
  const remotes = localRemotes(config, options.remoteRoots);
  for (const remote of remotes) {
    if (!existsSync(join(remote.root, 'mf-manifest.json')) && !options.remoteRoots?.[remote.name]) {
      throw new Error(`No build of remote "${remote.name}" in ${remote.root} (mf-manifest.json missing). Run \`npm run build\` first.`);
    }
  }

  // Render the deployable server blocks plus the preview-only top-level nginx.conf.
  rmSync(join(previewDir, 'conf.d'), { recursive: true, force: true });
  for (const dir of ['conf.d', 'logs', 'tmp']) mkdirSync(join(previewDir, dir), { recursive: true });
  writeFiles(
    join(previewDir, 'conf.d'),
    renderDeployment({
      config,
      configFile,
      shell: { origin: shellOrigin, listen: String(shellPort), serverName: 'localhost', root: shellRoot },
      remotes,
    }),
  );
  const nginxConf = join(previewDir, 'nginx.conf');
  const workerUser = workerUserFor([shellRoot, configFile, ...remotes.map((remote) => remote.root)]);
  if (workerUser.directive)
    log(`running as root and ${workerUser.unreadable[0]} is private: nginx's workers run as root too (decisions/0012)`);
  writeFileSync(
    nginxConf,
    renderTemplate(
      readFileSync(join(TEMPLATE_DIR, 'preview.nginx.conf.template'), 'utf8'),
      { PREVIEW_DIR: previewDir, MIME_TYPES: findMimeTypes(), WORKER_USER_EXTRA: workerUser.directive },
      'preview.nginx.conf.template',
    ),
  );
  const nginxArgs = ['-p', previewDir, '-c', nginxConf, '-e', 'stderr'];
  const NGINX = requireNginx();
  checkNginxConfig(NGINX, nginxArgs);

  /** @type {ManagedProcess[]} */
  const children = [];
  let stopping = false;
  /** @type {(reason: string) => void} */
  let onExit = () => {};
  /** @type {Promise<string>} */
  const exitedPromise = new Promise((r) => {
    onExit = r;
  });
  /** @param {string} name @param {ManagedProcess} managed */
  const track = (name, managed) => {
    children.push(managed);
    void managed.exited.then(({ code, signal }) => {
      if (!stopping) onExit(`${name} exited unexpectedly (${signal ?? `code ${code}`})`);
    });
    return managed;
  };
  // Last resort if this process ends without stop(): children run in their own process groups.
  const removeExitHook = killOnExit(() => children.map((managed) => managed.child));
  const stop = async () => {
    stopping = true;
    await Promise.all(children.map((managed) => managed.stop()));
    removeExitHook();
  };

  try {
    if (options.identityProvider !== false) {
      const idp = await startIdentityProvider(config.identityProvider, { quiet: options.quiet });
      if (idp) track('identity provider', idp);
    }

    // nginx would only say "bind() … failed (98: Address already in use)"; say who holds the port.
    const ports = [
      { port: shellPort, purpose: 'the shell' },
      ...remotes.map((r) => ({ port: Number(r.listen), purpose: `the remote ${r.name}` })),
    ];
    const taken = await Promise.all(ports.map(({ port, purpose }) => takenPortProblem(port, purpose)));
    const problems = taken.filter((problem) => problem !== null);
    if (problems.length > 0) throw new Error(`Cannot serve the preview:\n${problems.map((line) => `  ${line}`).join('\n')}`);
    const nginx = track('nginx', startProcess(NGINX, nginxArgs, { stdio: forwardedOutput(options.quiet) }));
    const shellUrl = `${shellOrigin}/`;
    /** @type {Record<string, string>} */
    const urls = { shell: shellUrl };
    for (const r of remotes) urls[r.name] = `http://localhost:${r.listen}/mf-manifest.json`;
    await waitForUrl(shellUrl, { timeoutMs: 10_000, child: nginx.child, name: 'nginx', accept: notAServerError });
    urls.identityProvider = config.identityProvider.url;
    return { stop, exited: exitedPromise, urls };
  } catch (error) {
    await stop();
    throw error;
  }
}

const USAGE = `usage: node scripts/preview.mjs [options]
  --config <file>          the shell's /config.json (default deploy/config/config.preview.json)
  --preview-dir <dir>      nginx work folder (default .preview/)
  --remote <name>=<dir>    serve remote <name> from another build folder
  --remote <name>=down     leave remote <name> out (nothing listens on its port)
  --shell-port <port>      the shell's port (default 4000)
  --no-idp                 do not start the dev identity provider
  --idp-only               start only the dev identity provider (if none answers)
  --demo-api-only          start only the demo API on :4010 (if none answers)
  --no-demo-api            do not start the demo API
  --quiet                  forward only error output of nginx and the provider
Prints "[preview] ready" on stderr once everything answers.`;

/** @param {readonly string[]} argv @returns {{ options: PreviewOptions & { remoteRoots: Record<string, string | null> }, idpOnly: boolean, demoApiOnly: boolean, demoApi: boolean }} */
function parseArgs(argv) {
  /** @type {PreviewOptions & { remoteRoots: Record<string, string | null> }} */
  const options = { remoteRoots: {} };
  let idpOnly = false;
  let demoApiOnly = false;
  let demoApi = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value.\n${USAGE}`);
      return next;
    };
    if (arg === '--config') options.configFile = value();
    else if (arg === '--preview-dir') options.previewDir = value();
    else if (arg === '--remote') {
      const [name, dir] = value().split(/=(.*)/s);
      if (!name || !dir) throw new Error(`--remote wants <name>=<dir> or <name>=down.\n${USAGE}`);
      options.remoteRoots[name] = dir === 'down' ? null : resolve(dir);
    } else if (arg === '--shell-port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--shell-port wants a port number.\n${USAGE}`);
      options.shellPort = port;
    } else if (arg === '--no-idp') options.identityProvider = false;
    else if (arg === '--idp-only') idpOnly = true;
    else if (arg === '--demo-api-only') demoApiOnly = true;
    else if (arg === '--no-demo-api') demoApi = false;
    else if (arg === '--quiet') options.quiet = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  return { options, idpOnly, demoApiOnly, demoApi };
}

/**
 * The default preview config with this machine's local release key pinned for every remote (decisions/0117), written
 * to the preview folder: the production topology always verifies its remotes' releases, which `npm run build` signed
 * with that key. Says which remotes' builds it did not sign (their slots will say the release could not be verified).
 * @param {PreviewOptions & { remoteRoots: Record<string, string | null> }} options
 * @returns {string} the config file to serve
 */
function pinnedPreviewConfig(options) {
  // and the session's end pushed by session-events on :3020, as under `npm start` (decisions/0118)
  const config = {
    ...pinLocalKey(JSON.parse(readFileSync(PREVIEW_CONFIG, 'utf8'))),
    sessionEvents: { url: `http://localhost:${SESSION_EVENTS_PORT}` },
  };
  const previewDir = resolve(options.previewDir ?? join(REPO_ROOT, '.preview'));
  mkdirSync(previewDir, { recursive: true });
  const file = join(previewDir, 'config.json');
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  const kid = localPublicKey().kid;
  const notSigned = localRemotes(config, options.remoteRoots)
    .filter((remote) => signerOf(remote.root) !== kid)
    .map((remote) => remote.name);
  log(
    `signed releases: every remote pins this machine's local release key (${relative(REPO_ROOT, LOCAL_RELEASE_KEY_FILE)}; decisions/0117)`,
  );
  if (notSigned.length > 0)
    log(
      `not signed by it: ${notSigned.join(', ')} — the shell will refuse to run them. \`npm run build\` signs with it (unset GATEHOUSE_RELEASE_KEY), or pass --config with your own keys pinned.`,
    );
  return file;
}

// No top-level await: test runners may load this file through require().
async function main() {
  /** @type {(() => Promise<void>) | undefined} */
  let stopAll;
  const shutdown = async (/** @type {number} */ code) => {
    if (stopAll) await stopAll();
    // a service still starting when the stop came is not in stopAll yet
    await Promise.all([...services].map((service) => service.stop()));
    process.exit(code);
  };
  process.on('SIGINT', () => {
    log('stopping');
    void shutdown(0);
  });
  process.on('SIGTERM', () => void shutdown(0));
  // Whoever started this preview ended without stopping it (a killed test worker, a closed terminal): stop too.
  stopWhenOrphaned(() => {
    log('the process that started this preview has ended; stopping');
    void shutdown(1);
  });
  try {
    const { options, idpOnly, demoApiOnly, demoApi } = parseArgs(process.argv.slice(2));
    if (demoApiOnly) {
      const config = JSON.parse(readFileSync(resolve(options.configFile ?? PREVIEW_CONFIG), 'utf8'));
      const api = await startDemoApi(config, { quiet: options.quiet });
      stopAll = api ? () => api.stop() : undefined;
      log('ready');
      if (api) {
        await api.exited;
        log('the demo API exited; stopping');
        await shutdown(1);
      }
      return;
    }
    if (idpOnly) {
      const config = JSON.parse(readFileSync(resolve(options.configFile ?? PREVIEW_CONFIG), 'utf8'));
      const idp = await startIdentityProvider(config.identityProvider, { quiet: options.quiet });
      stopAll = idp ? () => idp.stop() : undefined;
      log('ready');
      if (idp) {
        await idp.exited;
        log('the identity provider exited; stopping');
        await shutdown(1);
      }
      return;
    }
    if (options.configFile === undefined) options.configFile = pinnedPreviewConfig(options);
    const preview = await startPreview(options);
    stopAll = preview.stop;
    const configFile = resolve(options.configFile ?? PREVIEW_CONFIG);
    /** @type {ShellConfig | null} */
    let apiConfig = null;
    try {
      apiConfig = demoApi ? JSON.parse(readFileSync(configFile, 'utf8')) : null;
      if (apiConfig && typeof apiConfig.identityProvider?.url !== 'string') throw new Error('it names no identityProvider.url');
    } catch (error) {
      // the shell shows what is wrong with its config.json; the builds are served all the same
      log(`no demo API: ${configFile} cannot name its provider (${error instanceof Error ? error.message : String(error)})`);
      apiConfig = null;
    }
    if (apiConfig) {
      const api = await startDemoApi(apiConfig, {
        quiet: options.quiet,
        shellOrigin: `http://localhost:${options.shellPort ?? SHELL_PORT}`,
      });
      if (api) {
        stopAll = async () => {
          await Promise.all([preview.stop(), api.stop()]);
        };
        preview.urls['demo API'] = `http://localhost:${DEMO_API_PORT}/profile`;
        void api.exited.then(() => log(`the demo API exited (the remotes' API calls fail until \`npm run preview\` is started again)`));
      }
    }
    if (apiConfig) {
      const shellOrigin = `http://localhost:${options.shellPort ?? SHELL_PORT}`;
      const events = await startSessionEventsService(apiConfig, { quiet: options.quiet, shellOrigin });
      if (events) {
        const stopBefore = stopAll;
        stopAll = async () => {
          await Promise.all([stopBefore?.(), events.stop()]);
        };
        preview.urls['session events'] = `http://localhost:${SESSION_EVENTS_PORT}/health`;
        void events.exited.then(() => log('session events exited (pages fall back to their own checks)'));
      }
    }
    log('production builds served by nginx:');
    for (const [name, url] of Object.entries(preview.urls)) log(`  ${name.padEnd(17)} ${url}`);
    log(
      `config.json: ${resolve(options.configFile ?? PREVIEW_CONFIG)}  (nginx config: ${resolve(options.previewDir ?? join(REPO_ROOT, '.preview'))})`,
    );
    log('Ctrl-C stops everything.');
    log('ready');
    const reason = await preview.exited;
    log(`${reason}; stopping`);
    await shutdown(1);
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    await shutdown(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
