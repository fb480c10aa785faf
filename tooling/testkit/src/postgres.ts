// A throwaway PostgreSQL for the Keycloak cluster tests (e2e/cluster): a new cluster made with `initdb` in a
// temporary folder, `postgres` listening on loopback only, one database for Keycloak, deleted again at stop.
// The binaries are Debian's `postgresql` package (/usr/lib/postgresql/<major>/bin, which is not on PATH) or
// `initdb`/`postgres` on PATH. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user the
// package creates (`runuser -u postgres`), with the data folder given to that user. Plain Node, no dependencies.

import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killOnExit, startProcess } from './processes';
import { isDebian, isExecutable, isRoot, onPath } from './systemTools';

/** Debian's packages keep the server binaries here, one folder per major version. */
const DEBIAN_POSTGRES = '/usr/lib/postgresql';

/** The command that installs PostgreSQL on this machine. */
function postgresInstallCommand() {
  return isDebian() ? `${isRoot() ? '' : 'sudo '}apt-get install -y postgresql` : "your system's `postgresql` package";
}

/**
 * The folder with `initdb`, `postgres` and `pg_isready`: the newest of Debian's /usr/lib/postgresql/<major>/bin,
 * else the folder of `initdb` on PATH; null when there is none.
 */
function findPostgresBin(root: string = DEBIAN_POSTGRES, path: string = process.env.PATH ?? ''): string | null {
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((name) => /^\d+$/.test(name) && isExecutable(join(root, name, 'bin/postgres')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0]) return join(root, majors[0], 'bin');
  }
  const initdb = onPath('initdb', path);
  return initdb ? join(initdb, '..') : null;
}

export interface RunningPostgres {
  /** e.g. jdbc:postgresql://127.0.0.1:5432/keycloak (Keycloak's --db-url) */
  jdbcUrl: string;
  /** the database's owner (Keycloak's --db-username); local connections need no password */
  username: string;
  port: number;
  /** stops the server and deletes its data */
  stop: () => Promise<void>;
}

/**
 * Starts a new PostgreSQL cluster on 127.0.0.1:`port` with an empty database `database` owned by `username`,
 * and resolves once it accepts connections. Throws an error that says what to install when the binaries are
 * missing, and with PostgreSQL's own words when it does not start.
 */
async function startPostgres({
  port,
  database = 'keycloak',
  username = 'keycloak',
  log = () => {},
  bin = findPostgresBin() ?? '',
}: {
  port: number;
  database?: string;
  username?: string;
  log?: (message: string) => void;
  bin?: string;
}): Promise<RunningPostgres> {
  if (!bin || !isExecutable(join(bin, 'initdb')))
    throw new Error(
      `PostgreSQL's initdb was not found (in ${DEBIAN_POSTGRES}/<version>/bin or on PATH). Install it with \`${postgresInstallCommand()}\`.`,
    );
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-postgres-'));
  const data = join(work, 'data');
  // PostgreSQL will not run as root: as root, the package's `postgres` user owns the folder and runs the server.
  const asOwner = (command: string): [string, string[]] =>
    isRoot() ? ['runuser', ['-u', 'postgres', '--', join(bin, command)]] : [join(bin, command), []];
  if (isRoot()) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    if (owner.status !== 0)
      throw new Error(
        `Running as root, PostgreSQL needs the \`postgres\` user to run as; there is none. Install \`${postgresInstallCommand()}\` (it creates it).`,
      );
    const uid = Number(owner.stdout.trim());
    chownSync(work, uid, statSync(work).gid);
  }
  const fail = (message: string) => {
    rmSync(work, { recursive: true, force: true });
    return new Error(message);
  };
  const [initdb, initdbArgs] = asOwner('initdb');
  const made = spawnSync(
    initdb,
    [...initdbArgs, '-D', data, '-U', username, '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    {
      encoding: 'utf8',
    },
  );
  if (made.status !== 0) throw fail(`initdb failed (exit code ${made.status}):\n${made.stderr || made.stdout}`);
  // Loopback only, the socket in the temporary folder (not /var/run/postgresql), no fsync: the data is thrown away.
  const [postgres, postgresArgs] = asOwner('postgres');
  const server = startProcess(
    postgres,
    [
      ...postgresArgs,
      '-D',
      data,
      '-c',
      'listen_addresses=127.0.0.1',
      '-p',
      String(port),
      '-k',
      work,
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  server.child.stderr?.on('data', (chunk) => (output += chunk.toString()));
  const removeExitHook = killOnExit(() => [server.child]);
  const stop = async () => {
    await server.stop(10_000);
    removeExitHook();
    rmSync(work, { recursive: true, force: true });
  };
  const [isready, isreadyArgs] = asOwner('pg_isready');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      await stop();
      throw new Error(`PostgreSQL exited before it accepted connections on 127.0.0.1:${port}:\n${output.slice(-2000)}`);
    }
    if (spawnSync(isready, [...isreadyArgs, '-q', '-h', '127.0.0.1', '-p', String(port)]).status === 0) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`PostgreSQL did not accept connections on 127.0.0.1:${port} within 30 s:\n${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const [createdb, createdbArgs] = asOwner('createdb');
  const created = spawnSync(createdb, [...createdbArgs, '-h', '127.0.0.1', '-p', String(port), '-U', username, database], {
    encoding: 'utf8',
  });
  if (created.status !== 0) {
    await stop();
    throw new Error(`createdb ${database} failed (exit code ${created.status}):\n${created.stderr}`);
  }
  log(`PostgreSQL (${bin}) on 127.0.0.1:${port}, database "${database}"`);
  return { jdbcUrl: `jdbc:postgresql://127.0.0.1:${port}/${database}`, username, port, stop };
}

export { startPostgres, findPostgresBin, postgresInstallCommand };
