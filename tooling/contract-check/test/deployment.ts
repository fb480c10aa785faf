import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nginxMainConfig, requireNginx } from '@gatehouse/testkit/nginx';
import { accepts, freePort } from '@gatehouse/testkit/ports';
import { startProcess, type ManagedProcess } from '@gatehouse/testkit/processes';
import { createTestCa } from '@gatehouse/testkit/tls';

// A production-like deployment on this machine, for the deploy doctor's tests: real nginx with the configuration
// deploy/nginx/render.mjs renders, TLS from a throwaway CA, the dev IdP behind nginx as Keycloak would be
// (--hostname, --proxy-headers xforwarded), static builds of the shell and one remote. Each variation breaks one thing.

const REPO = path.resolve(__dirname, '..', '..', '..');
export const SHELL_HOST = 'shell.gatehouse.test';
const REMOTE_HOST = 'profile.gatehouse.test';
export const SAME_SITE_IDP = 'sso.gatehouse.test';
export const OTHER_SITE_IDP = 'sso.idp-vendor.test';

/** What a broken deployment changes; the default is the good one. */
export interface Variation {
  /** where the identity provider is (default: on the shell's site) */
  idpHost?: string;
  /** the origin the realm's client allows (web origins, redirect URIs; default the shell's) */
  clientOrigin?: string;
  /** the remote on plain http */
  remoteOverHttp?: boolean;
  /** the shell on plain http */
  shellOverHttp?: boolean;
  /** the identity provider on plain http */
  idpOverHttp?: boolean;
  /** the config.json nginx's CSP and CORS are rendered from differs from the served one: it lacks the remote */
  renderWithoutRemote?: boolean;
  /** the shell origin nginx's CORS is rendered for */
  renderedShellOrigin?: string;
  /** the provider's --hostname, when it is not the URL config.json reaches it at */
  idpHostname?: string;
  /** edits the rendered gatehouse-http.conf (its cache map) */
  editHttpConf?: (conf: string) => string;
}

export interface Deployment {
  readonly shellUrl: string;
  /** the doctor's arguments that reach it: the CA and the names */
  readonly doctorArgs: string[];
  stop(): Promise<void>;
}

/** Resolves once `port` accepts connections, or rejects with the process's output when it has exited. */
async function listening(port: number, process: ManagedProcess, name: string, output: () => string): Promise<void> {
  let exited = false;
  void process.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${name} exited before listening on ${port}:\n${output()}`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function write(file: string, content: string | object): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

export async function startDeployment(variation: Variation = {}): Promise<Deployment> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-doctor-'));
  const idpHost = variation.idpHost ?? SAME_SITE_IDP;
  const ca = createTestCa();
  const leaf = ca.issue([SHELL_HOST, REMOTE_HOST, SAME_SITE_IDP, OTHER_SITE_IDP]);
  const tls = [`ssl_certificate ${leaf.certFile}`, `ssl_certificate_key ${leaf.keyFile}`];
  const [port, plainPort, idpPort, idpManagementPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const shellOrigin = variation.shellOverHttp ? `http://${SHELL_HOST}:${plainPort}` : `https://${SHELL_HOST}:${port}`;
  const remoteOrigin = variation.remoteOverHttp ? `http://${REMOTE_HOST}:${plainPort}` : `https://${REMOTE_HOST}:${port}`;
  const idpUrl = variation.idpOverHttp ? `http://${idpHost}:${plainPort}` : `https://${idpHost}:${port}`;

  const remote = { name: 'profile', manifest: `${remoteOrigin}/mf-manifest.json`, route: '/profile', title: 'Profile' };
  const config = { identityProvider: { url: idpUrl, realm: 'gatehouse', clientId: 'gatehouse-shell' }, remotes: [remote] };
  write(path.join(dir, 'config.json'), config);
  write(path.join(dir, 'rendered-config.json'), variation.renderWithoutRemote ? { ...config, remotes: [] } : config);
  write(path.join(dir, 'shell', 'index.html'), '<!doctype html><title>Gatehouse</title><script defer src="/main.0123abcd.js"></script>');
  write(path.join(dir, 'shell', 'main.0123abcd.js'), 'console.log("shell");');
  write(path.join(dir, 'profile', 'mf-manifest.json'), {
    id: 'profile',
    name: 'profile',
    metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' } },
    shared: [],
    exposes: [
      { id: 'profile:App', name: 'App', path: './App', assets: { js: { sync: ['__federation_expose_App.89abcdef.js'], async: [] } } },
    ],
  });
  write(path.join(dir, 'profile', 'remoteEntry.js'), 'var profile;');
  write(path.join(dir, 'profile', '__federation_expose_App.89abcdef.js'), 'export {};');
  const clientOrigin = variation.clientOrigin ?? shellOrigin;
  write(path.join(dir, 'realm.json'), {
    realm: 'gatehouse',
    enabled: true,
    clients: [
      {
        clientId: 'gatehouse-shell',
        enabled: true,
        publicClient: true,
        standardFlowEnabled: true,
        redirectUris: [`${clientOrigin}/*`],
        webOrigins: ['+'],
        attributes: { 'pkce.code.challenge.method': 'S256', 'post.logout.redirect.uris': '+' },
      },
    ],
  });

  write(path.join(dir, 'deployment.json'), {
    configFile: 'rendered-config.json',
    servedConfigFile: path.join(dir, 'config.json'),
    shell: {
      origin: variation.renderedShellOrigin ?? shellOrigin,
      listen: variation.shellOverHttp ? `${plainPort}` : `${port} ssl`,
      serverName: SHELL_HOST,
      root: 'shell',
      directives: variation.shellOverHttp ? [] : tls,
    },
    remotes: [
      {
        name: 'profile',
        listen: variation.remoteOverHttp ? `${plainPort}` : `${port} ssl`,
        serverName: REMOTE_HOST,
        root: 'profile',
        directives: variation.remoteOverHttp ? [] : tls,
      },
    ],
    identityProvider: {
      listen: variation.idpOverHttp ? `${plainPort}` : `${port} ssl`,
      serverName: idpHost,
      directives: variation.idpOverHttp ? [] : tls,
      upstream: `http://127.0.0.1:${idpPort}`,
    },
  });
  const rendered = spawnSync(
    process.execPath,
    [path.join(REPO, 'deploy/nginx/render.mjs'), path.join(dir, 'deployment.json'), path.join(dir, 'conf.d')],
    {
      encoding: 'utf8',
    },
  );
  if (rendered.status !== 0) throw new Error(`render.mjs failed: ${rendered.stderr}`);
  const httpConf = path.join(dir, 'conf.d', 'gatehouse-http.conf');
  if (variation.editHttpConf) fs.writeFileSync(httpConf, variation.editHttpConf(fs.readFileSync(httpConf, 'utf8')));
  for (const sub of ['logs', 'tmp']) fs.mkdirSync(path.join(dir, sub));
  write(
    path.join(dir, 'nginx.conf'),
    nginxMainConfig({
      prefix: dir,
      // The temp folder is private to root: the workers stay root when root starts nginx (decisions/0012).
      user: process.getuid?.() === 0 ? 'user root;' : '',
      http: [`access_log ${dir}/logs/access.log;`, `include ${dir}/conf.d/*.conf;`],
    }),
  );

  let output = '';
  const collect = (chunk: Buffer) => (output += String(chunk));
  const idp = startProcess(
    process.execPath,
    [
      path.join(REPO, 'dev-idp/bin/gatehouse-dev-idp.mjs'),
      ...['--port', String(idpPort), '--management-port', String(idpManagementPort), '--realm', path.join(dir, 'realm.json')],
      ...['--hostname', variation.idpHostname ?? idpUrl, '--proxy-headers', 'xforwarded', '--quiet'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  idp.child.stdout?.on('data', collect);
  idp.child.stderr?.on('data', collect);
  const nginx = startProcess(requireNginx(), ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  nginx.child.stdout?.on('data', collect);
  nginx.child.stderr?.on('data', collect);
  const stop = async (): Promise<void> => {
    await Promise.all([nginx.stop(), idp.stop()]);
    ca.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await listening(port, nginx, 'nginx', () => output);
    await listening(idpPort, idp, 'the dev IdP', () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  const names = [SHELL_HOST, REMOTE_HOST, SAME_SITE_IDP, OTHER_SITE_IDP].flatMap((name) => ['--resolve', `${name}:127.0.0.1`]);
  // everything runs on loopback: the doctor reads it only when told (--allow-private)
  return { shellUrl: `${shellOrigin}/`, doctorArgs: ['--ca', ca.certFile, ...names, '--allow-private'], stop };
}
