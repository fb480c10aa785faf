// Where nginx and its mime.types are, for `npm run preview`, the production browser tests and the
// benchmark. Plain Node, no dependencies.

import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDebian, isExecutable, isRoot, onPath } from './systemTools';

const MIME_TYPES_CANDIDATES = ['/etc/nginx/mime.types', '/usr/local/etc/nginx/mime.types', '/opt/homebrew/etc/nginx/mime.types'];

/** nginx: `NGINX_BIN` if set (it must exist), else `/usr/sbin/nginx`, else `nginx` on PATH; null when none. */
function findNginx() {
  const fromEnv = process.env.NGINX_BIN;
  if (fromEnv) {
    if (!isExecutable(fromEnv))
      throw new Error(`NGINX_BIN is ${fromEnv}, which is not an executable file. Point it at nginx, or unset it.`);
    return fromEnv;
  }
  if (isExecutable('/usr/sbin/nginx')) return '/usr/sbin/nginx';
  return onPath('nginx');
}

/** The command that installs nginx on this machine. */
function nginxInstallCommand() {
  return isDebian() ? `${isRoot() ? '' : 'sudo '}apt-get install -y nginx-light` : "brew install nginx   (or your system's nginx package)";
}

/** nginx, or an error that says how to install it. */
function requireNginx() {
  const nginx = findNginx();
  if (!nginx)
    throw new Error(
      `nginx not found (NGINX_BIN is not set, no /usr/sbin/nginx, none on PATH). Install it with \`${nginxInstallCommand()}\`, or set NGINX_BIN.`,
    );
  return nginx;
}

/** nginx's mime.types, or an error that says nginx is missing. */
function findMimeTypes() {
  const found = MIME_TYPES_CANDIDATES.find((file) => existsSync(file));
  if (!found)
    throw new Error(
      `nginx's mime.types not found (looked in ${MIME_TYPES_CANDIDATES.join(', ')}). Install nginx with \`${nginxInstallCommand()}\`.`,
    );
  return found;
}

/**
 * Has nginx test the configuration it is about to be started with (`nginx <args> -t -q`); throws with nginx's
 * own words unless it accepts it.
 *
 * @param nginx the binary (requireNginx())
 * @param args the arguments it will be started with (`-p`, `-c <conf>`, `-e stderr`)
 */
function checkNginxConfig(nginx: string, args: readonly string[]) {
  const check = spawnSync(nginx, [...args, '-t', '-q'], { encoding: 'utf8' });
  if (check.error)
    throw new Error(`Cannot run ${nginx}: ${check.error.message}. Install it with \`${nginxInstallCommand()}\`, or set NGINX_BIN.`);
  if (check.status !== 0) throw new Error(`nginx rejected the configuration of \`nginx ${args.join(' ')}\`:\n${check.stderr}`);
}

/**
 * Whether a user who is neither the owner nor in the group (nginx's workers run as `nobody` or
 * `www-data` when root starts nginx) can read `path`: every folder on the way must be searchable by
 * others, and the path itself readable.
 */
function readableByOthers(path: string): boolean {
  let current;
  try {
    current = realpathSync(path);
  } catch {
    // A file that does not exist is nginx's to report (404), if its workers can reach its folder; a folder they
    // cannot enter turns that 404 into a 403.
    return existsSync(dirname(path)) ? readableByOthers(dirname(path)) : true;
  }
  const target = statSync(current);
  if (!(target.mode & 0o004) || (target.isDirectory() && !(target.mode & 0o001))) return false;
  for (let dir = dirname(current); ; dir = dirname(dir)) {
    if (!(statSync(dir).mode & 0o001)) return false;
    if (dir === dirname(dir)) return true;
  }
}

/**
 * The `user` line for a preview's top-level nginx.conf. Started by root, nginx drops its workers to an
 * unprivileged user, which cannot read a checkout in a private folder (`mktemp -d`, /root): then, and
 * only then, the workers keep running as root (decisions/0012). Anyone else runs nginx as themselves.
 *
 * @param servedPaths the folders and files nginx serves
 */
function workerUserFor(servedPaths: readonly string[]): { directive: string; unreadable: string[] } {
  if (!isRoot()) return { directive: '', unreadable: [] };
  const unreadable = servedPaths.filter((path) => !readableByOthers(path));
  if (unreadable.length === 0) return { directive: '', unreadable };
  return {
    directive: `# Started by root, and ${unreadable[0]} is not readable by other users: the workers stay root (decisions/0012).\nuser root;`,
    unreadable,
  };
}

/**
 * The main nginx.conf of an nginx run from `prefix` by a test or the preview (`nginx -p <prefix> -c <file> -e stderr`):
 * in the foreground, one worker, its pid and temp folders under `prefix` (`tmp/`, which must exist), errors on stderr,
 * nginx's mime types; `http` is the rest of the http block (the access log, the includes of the server blocks).
 *
 * @param options.user the `user` directive the workers need, or '' (workerUserFor())
 */
function nginxMainConfig({
  prefix,
  user = '',
  workerConnections = 64,
  http,
}: {
  prefix: string;
  user?: string;
  workerConnections?: number;
  http: readonly string[];
}): string {
  return [
    'daemon off;',
    user,
    'worker_processes 1;',
    `pid ${join(prefix, 'nginx.pid')};`,
    'error_log stderr warn;',
    `events { worker_connections ${workerConnections}; }`,
    'http {',
    `    include ${findMimeTypes()};`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `    ${name}_temp_path ${join(prefix, 'tmp', name)};`),
    ...http.map((line) => `    ${line}`),
    '}',
    '',
  ].join('\n');
}

export { findNginx, nginxInstallCommand, requireNginx, findMimeTypes, checkNginxConfig, readableByOthers, workerUserFor, nginxMainConfig };
