// The command line the repository's small HTTP services share (gatehouse-demo-api, gatehouse-session-events): their
// common options, checked with one usage message, and the run that stops on SIGINT/SIGTERM and says why it could not
// start. Each bin adds its own options and describes itself.
import { parseArgs } from 'node:util';

/**
 * The common options (--port, --host, --issuer, --client-id, --origins, --public-url, --quiet, --help) and `extra`,
 * parsed and checked; a malformed one ends the process with the usage (exit 2), --help prints it (exit 0).
 *
 * @param {string} usage @param {string} defaultPort
 * @param {Record<string, { type: 'string' | 'boolean', default?: string | boolean }>} [extra]
 * @returns {{ values: Record<string, string | boolean | undefined>, port: number, origins: string[], publicUrl: string | undefined }}
 */
export function serviceCommandLine(usage, defaultPort, extra = {}) {
  /** @param {string} message @returns {never} */
  const fail = (message) => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };
  let values;
  try {
    values = parseArgs({
      options: {
        port: { type: 'string', default: defaultPort },
        host: { type: 'string', default: '127.0.0.1' },
        issuer: { type: 'string' },
        'client-id': { type: 'string', default: 'gatehouse-shell' },
        origins: { type: 'string', default: '' },
        'public-url': { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
        ...extra,
      },
    }).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port wants a port number, not "${String(values.port)}".`);
  const origins = String(values.origins)
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin)
      fail(`--origins: "${origin}" is not an origin (scheme://host[:port], no path).`);
  }
  const publicUrl = /** @type {string | undefined} */ (values['public-url']);
  if (publicUrl !== undefined && (!URL.canParse(publicUrl) || !/^https?:$/.test(new URL(publicUrl).protocol))) {
    fail(`--public-url: "${publicUrl}" is not an http(s) URL.`);
  }
  return { values, port, origins, publicUrl };
}

/**
 * Starts a service, prints what `describe` says of it, and closes it on SIGINT/SIGTERM; a port in use or another
 * failure to start is one line on stderr and exit 1.
 *
 * @template {{ close(): Promise<void> }} S
 * @param {() => Promise<S>} start @param {(service: S) => string} describe @param {number} port
 */
export async function runService(start, describe, port) {
  try {
    const service = await start();
    console.log(describe(service));
    const stop = () => void service.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (error) {
    const code = /** @type {{ code?: string }} */ (error).code;
    console.error(
      code === 'EADDRINUSE'
        ? `error: port ${port} is already in use (--port)`
        : `error: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}
