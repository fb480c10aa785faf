// The options of a start, and the `kc.sh` arguments they make: a dev node (start-dev) or a cluster node.

import { KeycloakRunnerError, LOOPBACK } from './common';

export interface StartOptions {
  /** where the distribution and its data live (default .keycloak/ in the repository) */
  dir?: string;
  /** imported at start (default deploy/keycloak/gatehouse-realm.json) */
  realmFile?: string;
  /** the realm whose discovery says "ready" (default gatehouse) */
  realm?: string;
  /** default 8080 */
  httpPort?: number;
  /** health endpoints, default 9000 */
  managementPort?: number;
  /** Keycloak's own log: to this terminal, or to <dir>/keycloak.log (default) */
  output?: 'inherit' | 'file';
  /** how long to wait for it to be ready (default 5 minutes) */
  timeoutMs?: number;
  /** progress lines (default: stderr, prefixed [keycloak]) */
  log?: (message: string) => void;
  /** where JAVA_HOME and JAVA_OPTS_KC_HEAP are read (default process.env) */
  env?: NodeJS.ProcessEnv;
  /** Keycloak behind a TLS-terminating reverse proxy (deploy/README.md) */
  behindProxy?: BehindProxy;
  /** the administrator's password (default ADMIN_PASSWORD_FILE; adminPassword()) */
  adminPasswordFile?: string;
  /** a node of a cluster on a shared database, in production mode (`kc.sh start`) */
  clusterNode?: ClusterNode;
  /**
   * the JIT's first tier only (QUICK_START), for a Keycloak that lives for a few
   * tests; not for one that serves a whole run, nor one whose speed is measured (the bench)
   */
  quickStart?: boolean;
  /**
   * another start's `dir`: when `dir` has no distribution built for this start's build
   * options and that one has (BUILT_STAMP), it is copied (without its data) instead of fetched, unpacked and built
   */
  buildFrom?: string;
}

/**
 * A node of a Keycloak cluster as Keycloak's clustering guide runs it: production mode (`kc.sh start`) on a shared
 * PostgreSQL (`--db postgres`), the default distributed caches (`--cache ispn`) and their default `jdbc-ping` stack
 * (the nodes find each other through a table in that database), behind a load balancer that is its public URL. Every
 * port on loopback: HTTP, management, and the node's JGroups port (whose failure detection listens 50,000 above it).
 * `--db` and `--cache` are build options: keep one `dir` per node, and the same options, so it is built once.
 */
export interface ClusterNode {
  /** the load balancer, e.g. https://sso.acme.com (or http on localhost, for tests) */
  publicUrl: string;
  /** the shared database (a JDBC URL) */
  database: { url: string; username: string; password?: string };
  /** below 15536 (its failure detection takes jgroupsPort + 50000) */
  jgroupsPort: number;
  /** whether this node imports the realm file (one node does, once, into the new database) */
  importRealm: boolean;
}

/**
 * Keycloak behind a reverse proxy that ends TLS, as production runs it (hostname v2): `--hostname <publicUrl>`
 * fixes the issuer, endpoints, redirects and cookies, `--proxy-headers xforwarded` trusts the proxy's
 * X-Forwarded-* headers, and `--http-relative-path <relativePath>` serves under a path (the proxied topology,
 * `https://portal.acme.com/auth`). The relative path is a build option: a home started with another one is
 * rebuilt first (tens of seconds), so keep one `dir` per relative path.
 */
export interface BehindProxy {
  /** what browsers use, e.g. https://sso.acme.com or https://portal.acme.com:8443/auth */
  publicUrl: string;
  /** e.g. "/auth": the path Keycloak serves under; publicUrl's path must end with it */
  relativePath?: string;
}

/** The HTTP and management listeners, both on loopback (start-dev binds the management port to every interface by default), with health. */
function loopbackListeners(httpPort: number, managementPort: number): string[] {
  return [
    `--http-host=${LOOPBACK}`,
    `--http-port=${httpPort}`,
    `--http-management-host=${LOOPBACK}`,
    `--http-management-port=${managementPort}`,
    '--health-enabled=true',
  ];
}

/**
 * The `kc.sh start-dev` arguments for `options`, or a KeycloakRunnerError that says what is wrong.
 */
export function startDevArgs({
  httpPort,
  managementPort,
  behindProxy,
}: {
  httpPort: number;
  managementPort: number;
  behindProxy?: BehindProxy;
}): string[] {
  const args = [
    'start-dev',
    '--import-realm',
    // Both interfaces on loopback: start-dev binds the HTTP port to localhost by default but the management
    // port to every interface (its own default, not inherited).
    ...loopbackListeners(httpPort, managementPort),
  ];
  if (!behindProxy) return args;
  const { publicUrl, relativePath } = behindProxy;
  const refuse = (problem: string) => new KeycloakRunnerError('KEYCLOAK_BAD_PROXY_OPTIONS', problem);
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw refuse(`behindProxy.publicUrl "${publicUrl}" is not a URL. Give the address browsers use, e.g. "https://sso.acme.com".`);
  }
  if (url.protocol !== 'https:' || url.search || url.hash || publicUrl.endsWith('/'))
    throw refuse(
      `behindProxy.publicUrl "${publicUrl}" must be an https URL without query, fragment or trailing slash, e.g. "https://sso.acme.com".`,
    );
  if (relativePath !== undefined && !/^(\/[A-Za-z0-9._~-]+)+$/.test(relativePath))
    throw refuse(`behindProxy.relativePath "${relativePath}" is not a path. Give e.g. "/auth", or leave it out to serve at the root.`);
  const path = url.pathname === '/' ? '' : url.pathname;
  if (relativePath !== undefined && !path.endsWith(relativePath))
    throw refuse(
      `behindProxy.publicUrl "${publicUrl}" does not end with relativePath "${relativePath}": the proxy passes the path as it is, so both name it.`,
    );
  args.push(`--hostname=${publicUrl}`, '--proxy-headers=xforwarded');
  if (relativePath !== undefined) args.push(`--http-relative-path=${relativePath}`);
  return args;
}

/**
 * The `kc.sh start` arguments of a cluster node (ClusterNode), or a KeycloakRunnerError that says what is wrong.
 */
export function clusterNodeArgs({
  httpPort,
  managementPort,
  clusterNode,
}: {
  httpPort: number;
  managementPort: number;
  clusterNode: ClusterNode;
}): string[] {
  const { publicUrl, database, jgroupsPort, importRealm } = clusterNode;
  let url: URL | null = null;
  try {
    url = new URL(publicUrl);
  } catch {
    // refused below
  }
  const loopback = url !== null && ['localhost', '127.0.0.1'].includes(url.hostname);
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) || url.pathname !== '/' || publicUrl.endsWith('/'))
    throw new KeycloakRunnerError(
      'KEYCLOAK_BAD_PROXY_OPTIONS',
      `clusterNode.publicUrl "${publicUrl}" must be the load balancer's https URL (plain http on localhost only), without path or trailing slash, e.g. "https://sso.acme.com".`,
    );
  if (!Number.isInteger(jgroupsPort) || jgroupsPort < 1024 || jgroupsPort > 15535)
    throw new KeycloakRunnerError(
      'KEYCLOAK_BAD_PROXY_OPTIONS',
      `clusterNode.jgroupsPort ${jgroupsPort} must be 1024–15535: JGroups' failure detection listens 50,000 above it.`,
    );
  return [
    'start',
    ...(importRealm ? ['--import-realm'] : []),
    '--db=postgres',
    `--db-url=${database.url}`,
    `--db-username=${database.username}`,
    ...(database.password ? [`--db-password=${database.password}`] : []),
    '--cache=ispn',
    `--cache-embedded-network-bind-address=${LOOPBACK}`,
    `--cache-embedded-network-bind-port=${jgroupsPort}`,
    '--http-enabled=true',
    ...loopbackListeners(httpPort, managementPort),
    `--hostname=${publicUrl}`,
    '--proxy-headers=xforwarded',
  ];
}
