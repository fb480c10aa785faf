// The production topology for the benchmark: the bench's builds behind real nginx, one origin per
// app, with the server blocks that a deployment uses (deploy/nginx/render.mjs), and the dev identity
// provider in its own process. It listens on its own ports (shell 4100, remotes 4101-4103, provider
// 8180), so it can run while `npm start` (3000-3003, 8080) or `npm run preview` (4000-4003) are up.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { workerUserFor } from '../../tooling/testkit/src/nginx.cjs';
import { renderDeployment, renderTemplate, writeFiles, TEMPLATE_DIR } from '../../deploy/nginx/render.mjs';

export const PORTS = {
  shell: 4100,
  profile: 4101,
  admin: 4102,
  reports: 4103,
  identityProvider: 8180,
  baselineHost: 4110,
  baselineRemote: 4111,
};
export const ORIGINS = Object.fromEntries(Object.entries(PORTS).map(([name, port]) => [name, `http://localhost:${port}`]));
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const MIME_TYPES = ['/etc/nginx/mime.types', '/usr/local/etc/nginx/mime.types', '/opt/homebrew/etc/nginx/mime.types'];

/** The shell's config.json for the bench topology (the preview's, on the bench's ports). */
export function benchConfig(repoRoot) {
  const config = JSON.parse(readFileSync(join(repoRoot, 'deploy/config/config.preview.json'), 'utf8'));
  config.identityProvider.url = ORIGINS.identityProvider;
  for (const remote of config.remotes) {
    if (!(remote.name in PORTS)) throw new Error(`bench: no port for remote "${remote.name}" of config.preview.json`);
    remote.manifest = `${ORIGINS[remote.name]}/mf-manifest.json`;
  }
  return config;
}

/** The demo realm with the bench's origins as the SPA client's redirect URIs. */
function benchRealm(repoRoot) {
  const realm = JSON.parse(readFileSync(join(repoRoot, 'deploy/keycloak/gatehouse-realm.json'), 'utf8'));
  const spa = realm.clients.find((client) => client.clientId === 'gatehouse-shell');
  if (!spa) throw new Error('bench: the demo realm has no client "gatehouse-shell"');
  spa.redirectUris = ['shell', 'profile', 'admin', 'reports', 'baselineHost'].map((name) => `${ORIGINS[name]}/*`);
  return realm;
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

async function waitFor(url, child, name, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (code ${child.exitCode}) before answering at ${url}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.status < 500) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} did not answer at ${url} within ${timeoutMs / 1000} s`);
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      resolve();
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

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
 * Starts the identity provider and nginx for the builds in `dirs` ({ shell, profile, admin, reports }).
 * @returns {Promise<{ config: object, configFile: string, stop(): Promise<void> }>}
 */
export async function startTopology({ repoRoot, workDir, dirs, log }) {
  for (const [name, port] of Object.entries(PORTS)) {
    if (!(await portIsFree(port))) throw new Error(`bench: port ${port} (${name}) is in use; stop what listens there and run again.`);
  }
  const config = benchConfig(repoRoot);
  const configFile = join(workDir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const realmFile = join(workDir, 'realm.json');
  writeFileSync(realmFile, JSON.stringify(benchRealm(repoRoot), null, 2));

  const children = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
  };
  process.on('exit', () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  });
  try {
    const idp = spawn(
      process.execPath,
      [join(repoRoot, 'dev-idp/bin/gatehouse-dev-idp.mjs'), '--port', String(PORTS.identityProvider), '--realm', realmFile, '--quiet'],
      {
        cwd: join(repoRoot, 'dev-idp'),
        stdio: ['ignore', 'ignore', 'inherit'],
        detached: true,
      },
    );
    children.push(idp);

    const nginxDir = join(workDir, 'nginx');
    for (const dir of ['conf.d', 'logs', 'tmp']) mkdirSync(join(nginxDir, dir), { recursive: true });
    writeFiles(
      join(nginxDir, 'conf.d'),
      renderDeployment({
        config,
        configFile,
        shell: { origin: ORIGINS.shell, listen: String(PORTS.shell), serverName: 'localhost', root: dirs.shell },
        remotes: config.remotes.map((remote) => ({
          name: remote.name,
          listen: String(PORTS[remote.name]),
          serverName: 'localhost',
          root: dirs[remote.name],
        })),
      }),
    );
    // The baseline (bench/baseline): plain server blocks, with the gzip settings of gatehouse-http.conf
    // (included in the same http block). The include pattern of the nginx template is `remote-*.conf`.
    if (dirs.baselineHost) writeFileSync(join(nginxDir, 'conf.d', 'remote-baseline.conf'), baselineServers(dirs));
    const mimeTypes = MIME_TYPES.find((file) => existsSync(file));
    if (!mimeTypes) throw new Error(`nginx's mime.types not found (looked in ${MIME_TYPES.join(', ')}). Is nginx installed?`);
    const nginxConf = join(nginxDir, 'nginx.conf');
    writeFileSync(
      nginxConf,
      renderTemplate(readFileSync(join(TEMPLATE_DIR, 'preview.nginx.conf.template'), 'utf8'), {
        PREVIEW_DIR: nginxDir,
        MIME_TYPES: mimeTypes,
        WORKER_USER_EXTRA: workerUserFor([configFile, ...Object.values(dirs)]).directive,
      }),
    );
    const nginxArgs = ['-p', nginxDir, '-c', nginxConf, '-e', 'stderr'];
    const check = spawnSync(NGINX, [...nginxArgs, '-t', '-q'], { encoding: 'utf8' });
    if (check.error) throw new Error(`Cannot run ${NGINX}: ${check.error.message}. Install nginx or set NGINX_BIN.`);
    if (check.status !== 0) throw new Error(`nginx rejected ${nginxConf}:\n${check.stderr}`);
    const nginx = spawn(NGINX, nginxArgs, { stdio: ['ignore', 'ignore', 'inherit'], detached: true });
    children.push(nginx);

    await waitFor(`${ORIGINS.shell}/`, nginx, 'nginx');
    await waitFor(
      `${ORIGINS.identityProvider}/realms/${config.identityProvider.realm}/.well-known/openid-configuration`,
      idp,
      'the dev identity provider',
    );
    log(`serving: shell ${ORIGINS.shell}, remotes ${PORTS.profile}-${PORTS.reports}, identity provider ${ORIGINS.identityProvider}`);
    return { config, configFile, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
