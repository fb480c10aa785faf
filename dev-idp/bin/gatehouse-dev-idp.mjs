#!/usr/bin/env node
// Starts the Gatehouse dev IdP: gatehouse-dev-idp --port 8080 --realm realm.json [--realm more.json]
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const usage =
  'usage: gatehouse-dev-idp [--port 8080] [--management-port 9000] [--host 127.0.0.1] --realm FILE [--realm FILE…]\n' +
  '                        [--realm-overlay FILE…] (redirect URIs and web origins added to clients; read again on change)\n' +
  '                        [--admin-user admin] [--admin-password admin] [--quiet]\n' +
  '                        [--hostname https://sso.example.com] [--proxy-headers xforwarded]\n' +
  'The administrator of realm master can also come from KC_BOOTSTRAP_ADMIN_USERNAME / KC_BOOTSTRAP_ADMIN_PASSWORD;\n' +
  '--hostname and --proxy-headers from KC_HOSTNAME and KC_PROXY_HEADERS (as Keycloak).';

/** The command line's options; a malformed one ends the process with the usage. */
function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '8080' },
        'management-port': { type: 'string', default: '9000' },
        host: { type: 'string', default: '127.0.0.1' },
        realm: { type: 'string', multiple: true, default: [] },
        'realm-overlay': { type: 'string', multiple: true, default: [] },
        'admin-user': { type: 'string' },
        'admin-password': { type: 'string' },
        quiet: { type: 'boolean', default: false },
        hostname: { type: 'string' },
        'proxy-headers': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
}
const args = parseCommandLine();
if (args.help) {
  console.log(usage);
  process.exit(0);
}
/** @param {unknown} error @returns {error is NodeJS.ErrnoException & { port?: number }} */
function isAddressInUse(error) {
  return error instanceof Error && /** @type {NodeJS.ErrnoException} */ (error).code === 'EADDRINUSE';
}
/** @param {'port' | 'management-port'} name @returns {number} */
function portOption(name) {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value < 0 || value > 65535 || args[name].trim() === '') {
    console.error(`--${name}: expected a port number, got "${args[name]}"\n${usage}`);
    process.exit(2);
  }
  return value;
}
const port = portOption('port');
const managementPort = portOption('management-port');

register();
const { startDevIdp, RealmFileError, FrontendOptionError } = await import('../src/index.js');
try {
  const idp = await startDevIdp({
    port,
    realmFiles: args.realm,
    realmOverlayFiles: args['realm-overlay'],
    managementPort,
    host: args.host,
    adminUser: args['admin-user'] ?? process.env.KC_BOOTSTRAP_ADMIN_USERNAME,
    adminPassword: args['admin-password'] ?? process.env.KC_BOOTSTRAP_ADMIN_PASSWORD,
    quiet: args.quiet,
    hostname: args.hostname ?? (process.env.KC_HOSTNAME || undefined),
    proxyHeaders: args['proxy-headers'] ?? (process.env.KC_PROXY_HEADERS || undefined),
  });
  const stop = () => idp.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  if (error instanceof RealmFileError || error instanceof FrontendOptionError) console.error(`error: ${error.message}`);
  else if (isAddressInUse(error)) console.error(`error: port ${error.port ?? port} is already in use (--port, --management-port)`);
  else console.error(error);
  process.exit(1);
}
