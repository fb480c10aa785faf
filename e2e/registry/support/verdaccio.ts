import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startProcess, waitForUrl } from '@gatehouse/testkit/processes';
import { freePort } from '../../https/support/freePort';

/** A Verdaccio of this test run: its URL, and a user config that may publish to it. */
export interface LocalRegistry {
  /** e.g. http://127.0.0.1:41234/ */
  readonly url: string;
  /** the machine's npm user config plus this registry's publish token (pass as NPM_CONFIG_USERCONFIG to publish) */
  readonly publisherConfig: string;
  stop(): Promise<void>;
}

/** Where npm takes third-party packages from on this machine: Verdaccio's uplink for everything not @gatehouse. */
function upstreamRegistry(): string {
  const configured = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).stdout.trim();
  return configured.startsWith('http') ? configured : 'https://registry.npmjs.org/';
}

/**
 * Verdaccio's configuration: storage in `work`, the public registry as the uplink for third-party packages,
 * and @gatehouse/* only from its own storage (never proxied, so a name someone else holds upstream cannot
 * stand in), readable by all, published by the one user this run registers (`max_users: 1`: no one else can).
 */
function configuration(work: string): string {
  return `# written by e2e/registry/support/verdaccio.ts for one test run
storage: ${join(work, 'storage')}
auth:
  htpasswd:
    file: ${join(work, 'htpasswd')}
    max_users: 1
uplinks:
  upstream:
    url: ${upstreamRegistry()}
packages:
  '@gatehouse/*':
    access: $all
    publish: $authenticated
    unpublish: $authenticated
  '**':
    access: $all
    proxy: upstream
web:
  enable: false
middlewares:
  audit:
    enabled: false
log:
  type: stdout
  format: pretty
  level: warn
`;
}

/** The path of the user config npm reads on this machine, or null when there is none. */
function userConfigFile(): string | null {
  const file = spawnSync('npm', ['config', 'get', 'userconfig'], { encoding: 'utf8' }).stdout.trim();
  return file && existsSync(file) ? file : null;
}

/**
 * Starts Verdaccio (the devDependency's own bin) on a free port with its configuration and storage in `work`,
 * and registers a throwaway publisher. Nothing outside `work` is written; stop() ends it.
 */
export async function startVerdaccio(work: string): Promise<LocalRegistry> {
  mkdirSync(work, { recursive: true });
  const config = join(work, 'config.yaml');
  writeFileSync(config, configuration(work));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = join(dirname(require.resolve('verdaccio/package.json')), 'bin/verdaccio');
  const server = startProcess(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    // its one warning is that it runs as root (as CI containers do)
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  try {
    await waitForUrl(`${url}-/ping`, { name: 'verdaccio', timeoutMs: 60_000, child: server.child });
    const user = 'gatehouse-publisher';
    const response = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: user, password: randomBytes(18).toString('base64url') }),
    });
    const { token } = (await response.json()) as { token?: string };
    if (response.status !== 201 || !token) throw new Error(`verdaccio did not register the publisher: HTTP ${response.status}`);
    const publisherConfig = join(work, 'publisher.npmrc');
    const machine = userConfigFile();
    writeFileSync(publisherConfig, `${machine ? readFileSync(machine, 'utf8') : ''}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, publisherConfig, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
