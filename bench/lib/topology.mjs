// The production topology for the benchmark: the bench's builds behind real nginx, one origin per
// app, with the server blocks that a deployment uses (deploy/nginx/render.mjs), the dev identity
// provider in its own process, and the remotes' demo APIs (demo-api/) in two more: Gatehouse's, which takes
// DPoP-bound tokens only (port 4120), and the baseline's, which takes bearer tokens (4121); and the session-events
// service (session-events/, 4130), to which the realm's gatehouse-shell client posts its back-channel logout tokens
// and from which the shell's leading tab hears that its session ended. It listens on its own ports (shell 4100,
// remotes 4101-4103, provider 8180, APIs 4120-4121, session events 4130), so it can run while `npm start`
// (3000-3003, 3010, 3020, 8080) or `npm run preview` (4000-4003, 4010) are up.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { checkNginxConfig, findMimeTypes, requireNginx, workerUserFor } from '@gatehouse/testkit/nginx';
import { killOnExit, notAServerError, startProcess, waitForUrl } from '@gatehouse/testkit/processes';
import { buildDirOf } from './build.mjs';
import { renderDeployment, renderTemplate, writeFiles, TEMPLATE_DIR } from '../../deploy/nginx/render.mjs';
import { pinLocalKey } from '../../scripts/releaseKey.cjs';

/** @typedef {import('../../deploy/nginx/render.mjs').ShellConfig} ShellConfig */
/** @typedef {import('@gatehouse/testkit/processes').ManagedProcess} ManagedProcess */

export const PORTS = {
  shell: 4100,
  profile: 4101,
  admin: 4102,
  reports: 4103,
  identityProvider: 8180,
  baselineHost: 4110,
  baselineRemote: 4111,
  // the demo APIs (demo-api/): Gatehouse's remotes' (DPoP-bound tokens only, its default) and the baseline's (bearer)
  demoApi: 4120,
  baselineApi: 4121,
  // the session-events service (session-events/): the provider's back-channel logout in, the pages' streams out
  sessionEvents: 4130,
};
/** @typedef {keyof typeof PORTS} Listener */

export const ORIGINS = /** @type {Record<Listener, string>} */ (
  Object.fromEntries(Object.entries(PORTS).map(([name, port]) => [name, `http://localhost:${port}`]))
);

/** @param {string} name @returns {name is Listener} */
function hasPort(name) {
  return Object.hasOwn(PORTS, name);
}

/**
 * The shell's config.json for the bench topology (the preview's, on the bench's ports).
 *
 * @param {string} repoRoot
 * @returns {ShellConfig}
 */
export function benchConfig(repoRoot) {
  /** @type {ShellConfig} */
  const config = JSON.parse(readFileSync(join(repoRoot, 'deploy/config/config.preview.json'), 'utf8'));
  config.identityProvider.url = ORIGINS.identityProvider;
  for (const remote of config.remotes) {
    if (!hasPort(remote.name)) throw new Error(`bench: no port for remote "${remote.name}" of config.preview.json`);
    remote.manifest = `${ORIGINS[remote.name]}/mf-manifest.json`;
    // the same path on the bench's demo API (the preview's is on :4010)
    if (remote.api) remote.api = { ...remote.api, url: `${ORIGINS.demoApi}${new URL(remote.api.url).pathname}` };
  }
  // the leading tab holds the session-events stream (decisions/0118), as the dev shell's config.json does
  config.sessionEvents = { url: ORIGINS.sessionEvents };
  // every remote's release is verified, as `npm run preview` pins them (decisions/0117): the builds are signed with
  // the local release key (build.mjs)
  return pinLocalKey(config);
}

/**
 * The baseline is plain keycloak-js, which sends no DPoP proofs: the bench's client does not require them
 * (`dpop.bound.access.tokens`, decisions/0112). Gatehouse sends its proofs either way, so its tokens are bound and
 * what they cost is measured.
 */
export const BASELINE_WITHOUT_DPOP = { 'dpop.bound.access.tokens': 'false' };

/**
 * The demo realm with the bench's origins as the SPA client's redirect URIs and the bench's session-events service as
 * its back-channel logout URL.
 *
 * @param {string} repoRoot
 * @returns {{ clients: Array<{ clientId: string, redirectUris?: string[], attributes?: Record<string, string> }> }} the realm representation (more keys than named)
 */
export function benchRealm(repoRoot) {
  /** @type {{ clients: Array<{ clientId: string, redirectUris?: string[], attributes?: Record<string, string> }> }} */
  const realm = JSON.parse(readFileSync(join(repoRoot, 'deploy/keycloak/gatehouse-realm.json'), 'utf8'));
  const spa = realm.clients.find((client) => client.clientId === 'gatehouse-shell');
  if (!spa) throw new Error('bench: the demo realm has no client "gatehouse-shell"');
  spa.redirectUris = /** @type {const} */ (['shell', 'profile', 'admin', 'reports', 'baselineHost']).map((name) => `${ORIGINS[name]}/*`);
  // the provider posts back-channel logout tokens to the bench's session-events service (the realm names :3020's)
  spa.attributes = {
    ...spa.attributes,
    ...BASELINE_WITHOUT_DPOP,
    'backchannel.logout.url': `${ORIGINS.sessionEvents}/backchannel-logout`,
    'backchannel.logout.session.required': 'true',
  };
  return realm;
}

/** @param {number} port @returns {Promise<boolean>} */
function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** @param {{ baselineHost: string, baselineRemote: string }} dirs the baseline's two builds */
function baselineServers(dirs) {
  return `server {
    listen ${PORTS.baselineHost};
    server_name localhost;
    root ${dirs.baselineHost};
    location / { try_files $uri /index.html; }
}
server {
    listen ${PORTS.baselineRemote};
    server_name localhost;
    root ${dirs.baselineRemote};
    add_header Access-Control-Allow-Origin *;
    location / { try_files $uri =404; }
}
`;
}

/**
 * Starts the identity provider and nginx for the builds in `dirs` (shell, profile, admin, reports; and
 * baselineHost, baselineRemote when the baseline was built).
 *
 * @param {object} options
 * @param {string} options.repoRoot
 * @param {string} options.workDir where the config, the realm and nginx's files go
 * @param {Readonly<Record<string, string>>} options.dirs each app's build folder, by app name
 * @param {(message: string) => void} options.log
 * @param {boolean} [options.devIdp] start the dev identity provider on its port (default); false: another provider
 *   (Keycloak, bench/lib/providerCost.mjs) already listens there
 * @returns {Promise<{ config: ShellConfig, configFile: string, realmFile: string, stopIdentityProvider(): Promise<void>, stop(): Promise<void> }>}
 */
export async function startTopology({ repoRoot, workDir, dirs, log, devIdp = true }) {
  for (const [name, port] of Object.entries(PORTS)) {
    if (!devIdp && name === 'identityProvider') continue;
    if (!(await portIsFree(port))) throw new Error(`bench: port ${port} (${name}) is in use; stop what listens there and run again.`);
  }
  const config = benchConfig(repoRoot);
  const configFile = join(workDir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const realmFile = join(workDir, 'realm.json');
  writeFileSync(realmFile, JSON.stringify(benchRealm(repoRoot), null, 2));

  /** @type {ManagedProcess[]} */
  const children = [];
  // Last resort if the bench ends without stop(): the children run in their own process groups.
  const removeExitHook = killOnExit(() => children.map((managed) => managed.child));
  const stop = async () => {
    await Promise.all(children.map((managed) => managed.stop()));
    removeExitHook();
  };
  try {
    const idp = devIdp
      ? startProcess(
          process.execPath,
          [join(repoRoot, 'dev-idp/bin/gatehouse-dev-idp.mjs'), '--port', String(PORTS.identityProvider), '--realm', realmFile, '--quiet'],
          { cwd: join(repoRoot, 'dev-idp'), stdio: ['ignore', 'ignore', 'inherit'] },
        )
      : null;
    if (idp) children.push(idp);

    // The demo APIs: tokens of the realm at the provider's port (whichever provider answers there), CORS for the
    // setup's own origins. Their own processes, as in a deployment: the page's event loop and the bench's are not theirs.
    const issuer = `${ORIGINS.identityProvider}/realms/${config.identityProvider.realm}`;
    /** @type {Array<[Listener, Listener[], string[]]>} */
    const apis = [
      ['demoApi', ['shell', 'profile', 'admin', 'reports'], []],
      ['baselineApi', ['baselineHost', 'baselineRemote'], ['--allow-bearer']],
    ];
    for (const [name, callers, extra] of apis) {
      const origins = callers.map((caller) => ORIGINS[caller]).join(',');
      const args = [join(repoRoot, 'demo-api/bin/gatehouse-demo-api.mjs'), '--port', String(PORTS[name]), '--issuer', issuer];
      args.push('--origins', origins, ...extra);
      children.push(startProcess(process.execPath, args, { cwd: join(repoRoot, 'demo-api'), stdio: ['ignore', 'ignore', 'inherit'] }));
    }
    // session-events: logout tokens of the same realm (whichever provider answers at its port), streams for Gatehouse's
    // origins, proofs naming its bench URL
    const sessionEventsArgs = [join(repoRoot, 'session-events/bin/gatehouse-session-events.mjs'), '--port', String(PORTS.sessionEvents)];
    sessionEventsArgs.push('--issuer', issuer, '--client-id', 'gatehouse-shell', '--public-url', ORIGINS.sessionEvents, '--quiet');
    sessionEventsArgs.push(
      '--origins',
      /** @type {const} */ (['shell', 'profile', 'admin', 'reports']).map((name) => ORIGINS[name]).join(','),
    );
    children.push(
      startProcess(process.execPath, sessionEventsArgs, { cwd: join(repoRoot, 'session-events'), stdio: ['ignore', 'ignore', 'inherit'] }),
    );

    const nginxDir = join(workDir, 'nginx');
    for (const dir of ['conf.d', 'logs', 'tmp']) mkdirSync(join(nginxDir, dir), { recursive: true });
    writeFiles(
      join(nginxDir, 'conf.d'),
      renderDeployment({
        config,
        configFile,
        shell: { origin: ORIGINS.shell, listen: String(PORTS.shell), serverName: 'localhost', root: buildDirOf(dirs, 'shell') },
        remotes: config.remotes.map((remote) => {
          if (!hasPort(remote.name)) throw new Error(`bench: no port for remote "${remote.name}"`);
          return { name: remote.name, listen: String(PORTS[remote.name]), serverName: 'localhost', root: buildDirOf(dirs, remote.name) };
        }),
      }),
    );
    // The baseline (bench/baseline): plain server blocks, with the gzip settings of gatehouse-http.conf
    // (included in the same http block). The include pattern of the nginx template is `remote-*.conf`.
    if (dirs.baselineHost) {
      const baseline = { baselineHost: dirs.baselineHost, baselineRemote: buildDirOf(dirs, 'baselineRemote') };
      writeFileSync(join(nginxDir, 'conf.d', 'remote-baseline.conf'), baselineServers(baseline));
    }
    const nginxConf = join(nginxDir, 'nginx.conf');
    writeFileSync(
      nginxConf,
      renderTemplate(readFileSync(join(TEMPLATE_DIR, 'preview.nginx.conf.template'), 'utf8'), {
        PREVIEW_DIR: nginxDir,
        MIME_TYPES: findMimeTypes(),
        WORKER_USER_EXTRA: workerUserFor([configFile, ...Object.values(dirs)]).directive,
      }),
    );
    const nginxArgs = ['-p', nginxDir, '-c', nginxConf, '-e', 'stderr'];
    const NGINX = requireNginx();
    checkNginxConfig(NGINX, nginxArgs);
    const nginx = startProcess(NGINX, nginxArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(nginx);

    await waitForUrl(`${ORIGINS.shell}/`, { child: nginx.child, name: 'nginx', accept: notAServerError });
    // 2xx only: the realm must exist (a provider other than the dev one may answer 404 until it has imported it)
    await waitForUrl(`${ORIGINS.identityProvider}/realms/${config.identityProvider.realm}/.well-known/openid-configuration`, {
      ...(idp ? { child: idp.child } : {}),
      name: idp ? 'the dev identity provider' : 'the identity provider',
    });
    for (const name of /** @type {const} */ (['demoApi', 'baselineApi']))
      await waitForUrl(`${ORIGINS[name]}/health`, { name: `the demo API (${name})` });
    await waitForUrl(`${ORIGINS.sessionEvents}/health`, { name: 'the session-events service' });
    log(
      `serving: shell ${ORIGINS.shell}, remotes ${PORTS.profile}-${PORTS.reports}, identity provider ${ORIGINS.identityProvider}, ` +
        `demo APIs ${ORIGINS.demoApi} (DPoP) and ${ORIGINS.baselineApi} (bearer, the baseline's), session events ${ORIGINS.sessionEvents}`,
    );
    // frees the provider's port for another provider (bench/lib/keycloak.mjs) while nginx keeps serving
    const stopIdentityProvider = async () => idp?.stop();
    return { config, configFile, realmFile, stopIdentityProvider, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
