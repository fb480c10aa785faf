import { startKeycloak, type RunningKeycloak } from '@gatehouse/testkit/keycloak';
import { checkNginxConfig, requireNginx } from '@gatehouse/testkit/nginx';
import { accepts, freePort } from '@gatehouse/testkit/ports';
import { startPostgres, type RunningPostgres } from '@gatehouse/testkit/postgres';
import { startProcess, type ManagedProcess } from '@gatehouse/testkit/processes';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../production/support/previewProcess';

/** A node of the cluster: its name (node-a, node-b), its address behind the load balancer, and whether it runs. */
export interface ClusterNode {
  readonly name: string;
  /** 127.0.0.1:<http port>, as nginx's `$upstream_addr` names it (the X-Keycloak-Node header) */
  readonly address: string;
  readonly running: boolean;
  /** SIGKILL: the JVM dies at once, no clean shutdown, nothing told to the other node */
  kill(): Promise<void>;
  /** SIGTERM: Keycloak shuts down cleanly (as a rolling upgrade stops a node) */
  stop(): Promise<void>;
  /** starts it again on the same ports and home (no import: the realm is in the database) */
  start(): Promise<void>;
}

/** Told how long each node start took (a spec's own time limit leaves the start-ups out: fixtures.ts). */
let startListener: ((ms: number) => void) | null = null;
export function onNodeStarted(listener: ((ms: number) => void) | null): void {
  startListener = listener;
}

export interface KeycloakCluster {
  /** the load balancer: what browsers and config.json's identityProvider.url use */
  readonly url: string;
  readonly nodes: readonly ClusterNode[];
  node(address: string): ClusterNode;
  /** starts every node that is not running, at once */
  startAll(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Keycloak home of each node. Both are built for the same options (`--db postgres --cache ispn`, a build of
 * tens of seconds): the second starts from a copy of the first's built distribution (StartOptions.buildFrom), so
 * a new machine builds once.
 */
const HOMES = ['cluster-a', 'cluster-b'].map((name) => join(REPO_ROOT, '.keycloak', name));

/** The response header the load balancer adds: which node answered (`$upstream_addr`; several when it went on to the next). */
export const NODE_HEADER = 'x-keycloak-node';

/** A port for JGroups below 15536 whose failure-detection port (50,000 above) is free too. */
async function jgroupsPort(taken: Set<number>): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let tries = 0; tries < 200; tries += 1) {
    const port = 7800 + Math.floor(Math.random() * 7000);
    if (!taken.has(port) && (await free(port)) && (await free(port + 50_000))) return port;
  }
  throw new Error('no free JGroups port between 7800 and 14800 (with its failure-detection port 50,000 above)');
}

/**
 * nginx as Keycloak's load balancer (Keycloak's "Configuring a reverse proxy" guide): both nodes in one upstream,
 * round robin, not sticky (deploy/keycloak/README.md, "A cluster"); a node that refuses connections, times out
 * or answers 502–504 is skipped for the next, POSTs included (a refresh or code exchange a dead node never
 * answered is safe to send again: refresh tokens are not revoked on use). `X-Forwarded-*` as Keycloak's
 * `--proxy-headers xforwarded` reads them; X-Keycloak-Node tells the tests which node answered.
 */
function loadBalancerConf(work: string, port: number, addresses: string[]): string {
  return `daemon off;
worker_processes 1;
pid ${join(work, 'nginx.pid')};
error_log stderr crit;
events { worker_connections 512; }
http {
    access_log ${join(work, 'access.log')};
    client_body_temp_path ${join(work, 'tmp/client_body')};
    proxy_temp_path ${join(work, 'tmp/proxy')};
    fastcgi_temp_path ${join(work, 'tmp/fastcgi')};
    uwsgi_temp_path ${join(work, 'tmp/uwsgi')};
    scgi_temp_path ${join(work, 'tmp/scgi')};
    upstream keycloak {
${addresses.map((address) => `        server ${address} max_fails=1 fail_timeout=5s;`).join('\n')}
        keepalive 16;
    }
    server {
        listen 127.0.0.1:${port};
        server_name localhost;
        location / {
            proxy_pass http://keycloak;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host:$server_port;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Host $host;
            proxy_set_header X-Forwarded-Port $server_port;
            proxy_buffer_size 16k;
            proxy_buffers 8 16k;
            proxy_connect_timeout 2s;
            proxy_next_upstream error timeout http_502 http_503 http_504 non_idempotent;
            add_header X-Keycloak-Node $upstream_addr always;
            add_header Access-Control-Expose-Headers X-Keycloak-Node always;
        }
    }
}
`;
}

/**
 * Two Keycloak 26 nodes in production mode on one new PostgreSQL, clustered over it (`--cache ispn`, the default
 * `jdbc-ping` stack), behind nginx on a free port. No realm is imported: each scenario makes its own through the
 * admin API (realm `master`, whose bootstrap administrator the first node creates). Each node has a home of its own
 * (`.keycloak/cluster-a`, `-b`: built once for these options, see HOMES) and its own HTTP, management and JGroups
 * ports on loopback. Everything is stopped, and the database deleted, by `stop()`.
 */
export async function startKeycloakCluster(): Promise<KeycloakCluster> {
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-cluster-'));
  // nginx started by root runs its workers as `nobody`, which buffers a large request body (a realm's import through
  // the admin API) under tmp/client_body: the folders must be reachable (nginx makes its temp folders the worker's)
  chmodSync(work, 0o711);
  mkdirSync(join(work, 'tmp'), { mode: 0o711 });
  const toStop: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of toStop.reverse()) await stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const postgres: RunningPostgres = await startPostgres({
      port: await freePort(),
      log: (message) => process.stderr.write(`[cluster] ${message}\n`),
    });
    toStop.push(postgres.stop);
    const port = await freePort();
    const url = `http://localhost:${port}`;
    const taken = new Set<number>();
    const specs = [];
    for (const name of ['node-a', 'node-b']) {
      const [httpPort, managementPort] = [await freePort(), await freePort()];
      const jgroups = await jgroupsPort(taken);
      taken.add(jgroups);
      specs.push({ name, httpPort, managementPort, jgroups });
    }
    const nodes = specs.map(({ name, httpPort, managementPort, jgroups }, index) => {
      let running: RunningKeycloak | null = null;
      const home = HOMES[index]!;
      const start = async () => {
        running = await startKeycloak({
          dir: home,
          ...(index > 0 ? { buildFrom: HOMES[0]! } : {}),
          httpPort,
          managementPort,
          // no realm of ours: ready once realm master's discovery answers
          realm: 'master',
          quickStart: true,
          clusterNode: {
            publicUrl: url,
            database: { url: postgres.jdbcUrl, username: postgres.username },
            jgroupsPort: jgroups,
            importRealm: false,
          },
          log: (message) => process.stderr.write(`[keycloak ${name}] ${message}\n`),
        });
        startListener?.(running.startedInMs);
        process.stdout.write(`[keycloak] ${name}: ready in ${(running.startedInMs / 1000).toFixed(1)} s\n`);
      };
      const node: ClusterNode = {
        name,
        address: `127.0.0.1:${httpPort}`,
        get running() {
          return running !== null;
        },
        async kill() {
          await running?.kill();
          running = null;
        },
        async stop() {
          await running?.stop();
          running = null;
        },
        start,
      };
      toStop.push(() => node.stop());
      return node;
    });
    // One after the other on the new database: the first creates the schema; two nodes creating it at once collide
    // (Liquibase: relation "databasechangelog" already exists).
    for (const node of nodes) await node.start();

    const conf = join(work, 'nginx.conf');
    writeFileSync(
      conf,
      loadBalancerConf(
        work,
        port,
        nodes.map((node) => node.address),
      ),
    );
    const nginx = requireNginx();
    const args = ['-p', work, '-c', conf, '-e', 'stderr'];
    checkNginxConfig(nginx, args);
    const server: ManagedProcess = startProcess(nginx, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    toStop.push(() => server.stop());
    const deadline = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (server.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the load balancer did not listen on ${port} (nginx's errors are above)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      url,
      nodes,
      node(address) {
        const found = nodes.find((node) => node.address === address);
        if (!found) throw new Error(`no node of the cluster is at ${address} (nodes: ${nodes.map((n) => n.address).join(', ')})`);
        return found;
      },
      async startAll() {
        await Promise.all(nodes.filter((node) => !node.running).map((node) => node.start()));
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
