import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startProcess, waitForUrl } from '@gatehouse/testkit/processes';
import { freePort } from '@gatehouse/testkit/ports';
import { REPO_ROOT } from '../../production/support/previewProcess';

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

/** The configuration the platform ships for its private registry (deploy/verdaccio/README.md). */
const SHIPPED_CONFIG = join(REPO_ROOT, 'deploy/verdaccio/config.yaml');

/**
 * Verdaccio's configuration: the shipped deploy/verdaccio/config.yaml as it is — @gatehouse/* only from its own
 * storage (never proxied, so a name someone else holds upstream cannot stand in), readable by all, published by the
 * one user registered (`max_users: 1`: no one else can) — with its storage in `work`, this machine's registry as
 * the uplink for third-party packages, and no web UI, audit or info log.
 */
function configuration(work: string): string {
  const shipped = readFileSync(SHIPPED_CONFIG, 'utf8');
  const replaced = shipped
    .replace(/^storage: \.\/storage$/m, `storage: ${join(work, 'storage')}`)
    .replace(/^ {4}file: \.\/htpasswd$/m, `    file: ${join(work, 'htpasswd')}`)
    .replace(/^ {4}url: https:\/\/registry\.npmjs\.org\/$/m, `    url: ${upstreamRegistry()}`);
  const expected: Array<[string, string]> = [
    ['storage', join(work, 'storage')],
    ['htpasswd', join(work, 'htpasswd')],
    ['uplink', upstreamRegistry()],
  ];
  for (const [what, value] of expected)
    if (!replaced.includes(value)) throw new Error(`${SHIPPED_CONFIG}: its ${what} line is not where the test expects it`);
  return `${replaced}
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
    // the publisher's login as deploy/verdaccio/README.md has it: `npm run registry:publisher`, no prompt
    const publisherConfig = join(work, 'publisher.npmrc');
    const machine = userConfigFile();
    writeFileSync(publisherConfig, machine ? readFileSync(machine, 'utf8') : '');
    const login = spawnSync('npm', ['run', '--silent', 'registry:publisher', '--', '--registry', url, '--userconfig', publisherConfig], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    if (login.status !== 0) throw new Error(`npm run registry:publisher failed (exit code ${login.status}): ${login.stderr}`);
    const tokenLine = readFileSync(publisherConfig, 'utf8')
      .split('\n')
      .find((line) => line.startsWith(`//127.0.0.1:${port}/:_authToken=`));
    const token = tokenLine?.slice(tokenLine.indexOf('=') + 1) ?? '';
    if (token === '') throw new Error(`npm run registry:publisher wrote no token for ${url} into ${publisherConfig}`);
    if (`${login.stdout}${login.stderr}`.includes(token)) throw new Error('npm run registry:publisher printed the token');
    return { url, publisherConfig, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
