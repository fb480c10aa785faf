// Starting Keycloak: its home prepared, the process started in a group of its own (processes.ts), its readiness
// waited for, and its stop.

import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { findJava } from '../java';
import { answers, killOnExit, signalGroup, startProcess, waitForUrl } from '../processes';

import { clusterNodeArgs, startDevArgs, type StartOptions } from './arguments';
import { adminPassword } from './credentials';
import { BUILT_STAMP, buildKey, copyBuiltDistribution } from './distribution';
import { obtainKeycloak } from './download';
import { prepareClusterImport, prepareRealmImport, prepareThemes } from './realm';
import {
  ADMIN_USERNAME,
  DEFAULT_HEAP,
  defaultLog,
  KEYCLOAK_VERSION,
  tail,
  heartbeat,
  KeycloakRunnerError,
  QUICK_START,
  REALM_FILE,
  REPO_ROOT,
} from './common';

export interface RunningKeycloak {
  /**
   * the base URL on loopback, e.g. http://localhost:8080 (config.json's identityProvider.url,
   * unless behindProxy: then browsers use its publicUrl, and this stays the admin API's and the proxy's address)
   */
  url: string;
  /** the management port's liveness endpoint */
  healthUrl: string;
  /** `{url}/realms/{realm}` */
  realmUrl: (realm: string) => string;
  /**
   * the bootstrap administrator of
   * realm `master` (its generated password, and the file that holds it)
   */
  admin: { username: string; password: string; passwordFile: string };
  /** the Keycloak home in use */
  home: string;
  /** where its output goes (unless `output` was 'inherit') */
  logFile: string;
  /** from the start of the JVM to the realm's discovery answering */
  startedInMs: number;
  /** whether the realm was imported into a new database at this start */
  freshImport: boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (Keycloak shuts down cleanly), SIGKILL after 15 s */
  stop: () => Promise<void>;
  /** SIGKILL at once (a node that dies: no clean shutdown), resolves once it is gone */
  kill: () => Promise<void>;
}

/**
 * Sets the nice value of every process and thread of a process group (`renice -g`: the JVM's threads too). Raising a
 * priority again needs root or CAP_SYS_NICE; without it the group keeps the lower one, which is said once.
 */
export function reniceGroup(pgid: number | undefined, nice: number, log: (line: string) => void) {
  if (pgid === undefined) return;
  const result = spawnSync('renice', ['-n', String(nice), '-g', String(pgid)], { encoding: 'utf8' });
  if (result.status !== 0)
    log(`could not set the start-up's priority to nice ${nice} (${(result.stderr || String(result.error)).trim()}); it runs on as it is`);
}

/**
 * Starts Keycloak (fetching it first if needed) with the realm imported, the bootstrap administrator and the
 * health endpoints on, and resolves once the realm's discovery document answers. Throws a KeycloakRunnerError
 * (or the JavaNotFoundError of findJava) that says what to do when it cannot.
 */
export async function startKeycloak(options: StartOptions = {}): Promise<RunningKeycloak> {
  const { realm = 'gatehouse', httpPort = 8080, managementPort = 9000, output = 'file', timeoutMs = 300_000 } = options;
  const log = options.log ?? defaultLog;
  const env = options.env ?? process.env;
  const dir = resolve(options.dir ?? join(REPO_ROOT, '.keycloak'));
  const { clusterNode } = options;
  const args = clusterNode
    ? clusterNodeArgs({ httpPort, managementPort, clusterNode })
    : startDevArgs({ httpPort, managementPort, behindProxy: options.behindProxy });
  const url = `http://localhost:${httpPort}${options.behindProxy?.relativePath ?? ''}`;
  // The management interface takes the relative path too (http-management-relative-path defaults to it).
  const healthUrl = `http://localhost:${managementPort}${options.behindProxy?.relativePath ?? ''}/health/live`;
  const discovery = `${url}/realms/${realm}/.well-known/openid-configuration`;

  const java = findJava({ env });
  for (const port of [httpPort, managementPort]) {
    if (await answers(`http://localhost:${port}/`, { accept: () => true }))
      throw new KeycloakRunnerError(
        'KEYCLOAK_PORT_TAKEN',
        `Port ${port} already answers (the dev identity provider, \`npm start\`, or another Keycloak?). Stop what listens there, then run the command again.`,
      );
  }
  mkdirSync(dir, { recursive: true });
  const built = buildKey(options);
  if (options.buildFrom) copyBuiltDistribution(options.buildFrom, dir, built);
  const home = await obtainKeycloak({ dir, log, env });
  const admin = adminPassword(options.adminPasswordFile);
  if (admin.generated)
    log(`generated the administrator's password into ${relative(process.cwd(), admin.file) || admin.file} (mode 0600): ${admin.password}`);
  // A cluster node's database is the cluster's (new for each cluster): only the node that imports needs the file.
  const { fresh, markImported } = clusterNode
    ? prepareClusterImport(home, clusterNode.importRealm ? (options.realmFile ?? REALM_FILE) : null)
    : prepareRealmImport(home, options.realmFile ?? REALM_FILE, admin.password);
  prepareThemes(home);

  const logFile = join(dir, 'keycloak.log');
  const logFd = output === 'file' ? openSync(logFile, 'w') : null;
  log(
    `starting Keycloak ${KEYCLOAK_VERSION} with Java ${java.major} (${java.home})${fresh ? ', importing the realm into a new database' : ''}${logFd === null ? '' : `; log: ${relative(process.cwd(), logFile)}`}`,
  );
  const started = Date.now();
  const server = startProcess(join(home, 'bin/kc.sh'), args, {
    cwd: home,
    stdio: logFd === null ? ['ignore', 'inherit', 'inherit'] : ['ignore', logFd, logFd],
    env: {
      ...env,
      JAVA_HOME: java.home,
      JAVA_OPTS_KC_HEAP: env.JAVA_OPTS_KC_HEAP ?? DEFAULT_HEAP,
      ...(options.quickStart ? { JAVA_OPTS_APPEND: [env.JAVA_OPTS_APPEND, QUICK_START].filter(Boolean).join(' ') } : {}),
      KC_BOOTSTRAP_ADMIN_USERNAME: ADMIN_USERNAME,
      KC_BOOTSTRAP_ADMIN_PASSWORD: admin.password,
    },
  });
  if (logFd !== null) closeSync(logFd);
  // GATEHOUSE_KEYCLOAK_START_NICE=<n>: the start-up (a JVM's minutes of CPU on a busy machine) runs at nice n, and the
  // server at the usual priority once ready, so a Keycloak starting beside timed tests does not starve the Keycloak
  // those tests use (test:keycloak sets it for the suites that start their own, decisions/0080).
  const startNice = Number(env.GATEHOUSE_KEYCLOAK_START_NICE ?? 0);
  if (startNice > 0) reniceGroup(server.child.pid, startNice, log);
  const removeExitHook = killOnExit(() => [server.child]);
  const stop = async () => {
    await server.stop(15_000);
    removeExitHook();
  };
  const kill = async () => {
    signalGroup(server.child, 'SIGKILL');
    await server.exited;
    removeExitHook();
  };

  const done = heartbeat(log, 'still starting');
  try {
    await waitForUrl(healthUrl, { child: server.child, timeoutMs, name: 'Keycloak', intervalMs: 500 });
    await waitForUrl(discovery, {
      child: server.child,
      timeoutMs: Math.max(1000, timeoutMs - (Date.now() - started)),
      name: 'Keycloak',
      intervalMs: 250,
    });
  } catch (error) {
    const exited = server.child.exitCode !== null || server.child.signalCode !== null;
    await stop();
    throw new KeycloakRunnerError(
      exited ? 'KEYCLOAK_EXITED' : 'KEYCLOAK_NOT_READY',
      `${(error as Error).message}${logFd === null ? '' : `\nThe end of ${logFile}:\n${tail(logFile)}`}`,
    );
  } finally {
    done();
  }
  if (startNice > 0) reniceGroup(server.child.pid, 0, log);
  if (fresh) markImported();
  writeFileSync(join(home, BUILT_STAMP), `${built}\n`);
  const startedInMs = Date.now() - started;
  log(
    `ready in ${(startedInMs / 1000).toFixed(1)} s on ${url}${options.behindProxy ? ` as ${options.behindProxy.publicUrl}` : ''} (realm "${realm}"; admin "${ADMIN_USERNAME}", password in ${relative(process.cwd(), admin.file) || admin.file}; health ${healthUrl})`,
  );
  return {
    url,
    healthUrl,
    realmUrl: (name) => `${url}/realms/${name}`,
    admin: { username: ADMIN_USERNAME, password: admin.password, passwordFile: admin.file },
    home,
    logFile,
    startedInMs,
    freshImport: fresh,
    exited: server.exited,
    stop,
    kill,
  };
}
