import { localPublicKey } from '../../../scripts/releaseKey.cjs';
import { checkNginxConfig, nginxMainConfig, requireNginx, workerUserFor } from '@gatehouse/testkit/nginx';
import { accepts, freePort } from '@gatehouse/testkit/ports';
import { startProcess, type ManagedProcess } from '@gatehouse/testkit/processes';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../production/support/previewProcess';
import { previewConfig, type ShellConfigJson } from '../../production/support/topology';
import { startIdentityProvider } from './identityProvider';
import { HOSTS, suiteState, type IdentityProviderSite } from './sites';

/** Options of config.json's `identityProvider` a test changes (shell/README.md). */
export interface ShellIdentityOptions {
  sessionWatchSeconds?: number;
}

/** The running topology: one nginx over TLS serving every host of the suite on one free port. */
export interface HttpsTopology {
  readonly port: number;
  /** https://portal.gatehouse.test:<port> */
  readonly shell: string;
  /** the identity provider as the browser reaches it: keycloak-js's `url` */
  readonly identityProvider: string;
  /** the identity provider itself, plain HTTP on loopback: the admin API's address */
  readonly identityProviderUpstream: string;
  /** the probe's top page: a page of the shell's site framing a page of another site */
  readonly probe: string;
  /**
   * Where a test's session-events service listens (`port`, on loopback: the provider posts its back-channel logout
   * there) and the public URL nginx proxies `GET /events` from (`url`, config.json's `sessionEvents.url`). Nothing
   * listens unless the test starts one.
   */
  readonly sessionEvents: { readonly url: string; readonly port: number };
  /**
   * Points the served /config.json at `realm` (nginx reads the file on every request), with `shellOptions`
   * added to its `identityProvider` (e.g. `sessionWatchSeconds`), and `sessionEvents` when `withSessionEvents`.
   */
  useRealm(realm: string, shellOptions?: ShellIdentityOptions, withSessionEvents?: boolean): void;
  stop(): Promise<void>;
}

/**
 * The probe's pages: the top page (on the shell's site) frames a page of another site, which tries to set
 * and read a `SameSite=None; Secure` cookie — what the identity provider's frame needs.
 */
function probeServer(port: number, listen: string, tls: string[]): string {
  const frame = `https://${HOSTS.probeFrame}:${port}/frame`;
  return `server {
    listen ${listen};
    server_name ${HOSTS.probeTop} ${HOSTS.probeFrame};
${tls.map((line) => `    ${line};`).join('\n')}
    default_type text/html;
    location = / {
        return 200 '<!doctype html><title>probe</title><iframe id="probe" src="${frame}"></iframe>';
    }
    location = /frame {
        return 200 '<!doctype html><title>probe frame</title>';
    }
    location = /favicon.ico {
        return 204;
    }
}
`;
}

/**
 * The session-events service's public host: `GET /events` (and its CORS preflight) to the service on loopback, unbuffered
 * (Server-Sent Events), as deploy/README.md tells operators; nothing else of the service is public.
 */
function sessionEventsServer(listen: string, tls: string[], upstreamPort: number): string {
  return `server {
    listen ${listen};
    server_name ${HOSTS.sessionEvents};
${tls.map((line) => `    ${line};`).join('\n')}
    location = /events {
        proxy_pass http://127.0.0.1:${upstreamPort};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_buffering off;
        proxy_read_timeout 1h;
    }
    location / {
        return 404;
    }
}
`;
}

/** `node deploy/nginx/render.mjs <deployment> <outDir>`; throws with its own words when it refuses. */
function render(deployment: string, outDir: string): void {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'deploy/nginx/render.mjs'), deployment, outDir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`deploy/nginx/render.mjs ${deployment} refused it:\n${run.stderr}`);
}

/** Resolves once something accepts TCP connections on 127.0.0.1:`port`; rejects when nginx exits first. */
async function listening(port: number, nginx: ManagedProcess): Promise<void> {
  let exited = false;
  void nginx.exited.then(() => (exited = true));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited) throw new Error(`nginx exited before it listened on ${port} (its errors are above)`);
    if (await accepts(port)) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on 127.0.0.1:${port} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a caller other than the suite changes (bench/lib/crossSite.mjs): which builds, and more server blocks. */
export interface HttpsTopologyOptions {
  /** the build folders to serve (default: each app's own dist/, the suite's production builds) */
  readonly roots?: { readonly shell: string; readonly remotes: Readonly<Record<string, string>> };
  /** more server blocks on the same port and certificate, e.g. the bench's baseline */
  readonly extraServers?: (port: number, listen: string, tls: readonly string[]) => string;
}

/**
 * Starts nginx with the production builds over TLS — the configuration rendered by deploy/nginx/render.mjs
 * from a deployment description, as a deployment renders it — with the shell, each remote and the identity
 * provider on a host of its own, and the provider's host on the shell's site or on another site — or (`proxied`)
 * the provider under `/auth` of the shell's own origin, through the shell's `identityProviderProxy` location.
 */
export async function startHttpsTopology(site: IdentityProviderSite, options: HttpsTopologyOptions = {}): Promise<HttpsTopology> {
  const state = suiteState();
  const port = await freePort();
  const work = join(state.work, `nginx-${port}`);
  for (const dir of ['conf.d', 'logs', 'tmp']) mkdirSync(join(work, dir), { recursive: true });
  const shell = `https://${HOSTS.shell}:${port}`;
  const idpHost = site === 'cross-site' ? HOSTS.crossSiteIdentityProvider : HOSTS.sameSiteIdentityProvider;
  const proxyPath = '/auth';
  const identityProvider = site === 'proxied' ? `${shell}${proxyPath}` : `https://${idpHost}:${port}`;
  const listen = `127.0.0.1:${port} ssl`;
  const tls = [`ssl_certificate ${state.certFile}`, `ssl_certificate_key ${state.keyFile}`];
  const idp = await startIdentityProvider(identityProvider, site === 'proxied' ? proxyPath : undefined);
  const sessionEvents = { url: `https://${HOSTS.sessionEvents}:${port}`, port: await freePort() };

  const configFile = join(work, 'config.json');
  const configFor = (realm: string, shellOptions: ShellIdentityOptions, withSessionEvents: boolean): ShellConfigJson => {
    const config = previewConfig();
    if (withSessionEvents) config['sessionEvents'] = { url: sessionEvents.url };
    config.identityProvider = { ...config.identityProvider, ...shellOptions, url: identityProvider, realm };
    // no demo API runs in this topology (the dev and production suites call it): the remotes name none
    config.remotes = config.remotes.map(({ api: _api, ...remote }) => ({
      ...remote,
      manifest: `https://${HOSTS.remotes[remote.name as keyof typeof HOSTS.remotes]}:${port}/mf-manifest.json`,
      // The admin remote asks for a higher level of authentication than a password sign-in (step-up), as in
      // deploy/config/config.example.json; the test realms map the levels (fixtures.ts).
      ...(remote.name === 'admin' ? { acr: 'gold' } : {}),
      // every remote's release verifies against the local release key its production build is signed with, as
      // `npm run preview` pins it (decisions/0117): the suite runs with verification on
      signingKeys: [localPublicKey()],
    }));
    return config;
  };
  const useRealm = (realm: string, shellOptions: ShellIdentityOptions = {}, withSessionEvents = false) =>
    writeFileSync(configFile, JSON.stringify(configFor(realm, shellOptions, withSessionEvents), null, 2));
  // rendered with the service named, so the shell's CSP allows it (connect-src) for the tests that use it
  useRealm('gatehouse', {}, true);

  const remotes = Object.entries(HOSTS.remotes).map(([name, host]) => ({
    name,
    listen,
    serverName: host,
    root: options.roots?.remotes[name] ?? join(REPO_ROOT, 'remotes', name, 'dist'),
    directives: tls,
  }));
  const shellRoot = options.roots?.shell ?? join(REPO_ROOT, 'shell/dist');
  // The deployment description, rendered by the same command a deployment runs.
  const deployment = join(work, 'deployment.json');
  writeFileSync(
    deployment,
    JSON.stringify({
      configFile,
      shell: {
        origin: shell,
        listen,
        serverName: HOSTS.shell,
        root: shellRoot,
        directives: tls,
        // The proxied topology's location (decisions/0032), rendered and accepted by nginx on every run; the
        // `proxied` project (Keycloak with --http-relative-path /auth: the dev provider serves at the root only)
        // signs in through it.
        identityProviderProxy: { path: proxyPath, upstream: idp.proxyPass },
      },
      remotes,
      ...(site === 'proxied' ? {} : { identityProvider: { listen, serverName: idpHost, directives: tls, upstream: idp.proxyPass } }),
    }),
  );
  try {
    render(deployment, join(work, 'conf.d'));
  } catch (error) {
    await idp.stop();
    throw error;
  }
  // served without it until a test asks (its service runs only then)
  useRealm('gatehouse');
  writeFileSync(join(work, 'conf.d', 'probe.conf'), probeServer(port, listen, tls));
  writeFileSync(join(work, 'conf.d', 'session-events.conf'), sessionEventsServer(listen, tls, sessionEvents.port));
  // (the include pattern below takes remote-*.conf)
  if (options.extraServers) writeFileSync(join(work, 'conf.d', 'remote-extra.conf'), options.extraServers(port, listen, tls));
  const workerUser = workerUserFor([shellRoot, configFile, ...remotes.map((r) => r.root)]);
  const nginxConf = join(work, 'nginx.conf');
  writeFileSync(
    nginxConf,
    nginxMainConfig({
      prefix: work,
      user: workerUser.directive,
      workerConnections: 256,
      http: [
        'default_type application/octet-stream;',
        'sendfile on;',
        `access_log ${join(work, 'logs/access.log')};`,
        ...['gatehouse-http.conf', 'shell.conf', 'remote-*.conf', 'identity-provider*.conf', 'probe.conf', 'session-events.conf'].map(
          (conf) => `include ${join(work, 'conf.d', conf)};`,
        ),
      ],
    }),
  );
  const nginx = requireNginx();
  const args = ['-p', work, '-c', nginxConf, '-e', 'stderr'];
  let server: ManagedProcess | undefined;
  try {
    checkNginxConfig(nginx, args);
    server = startProcess(nginx, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    await listening(port, server);
  } catch (error) {
    await Promise.all([server?.stop(), idp.stop()]);
    throw error;
  }
  const running = server;
  return {
    port,
    shell,
    identityProvider,
    identityProviderUpstream: idp.upstream,
    probe: `https://${HOSTS.probeTop}:${port}/`,
    sessionEvents,
    useRealm,
    async stop() {
      await Promise.all([running.stop(), idp.stop()]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}
