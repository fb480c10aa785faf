#!/usr/bin/env node
// Starts the Gatehouse dev IdP: gatehouse-dev-idp --port 8080 --realm realm.json [--realm more.json]
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const usage = 'usage: gatehouse-dev-idp [--port 8080] --realm FILE [--realm FILE…] [--admin-user admin] [--admin-password admin] [--quiet]';

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string', default: '8080' },
      realm: { type: 'string', multiple: true, default: [] },
      'admin-user': { type: 'string' },
      'admin-password': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }).values;
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port: expected a port number, got "${args.port}"\n${usage}`);
  process.exit(2);
}

register();
const { startDevIdp, RealmFileError } = await import('../src/index.ts');
try {
  const idp = await startDevIdp({
    port,
    realmFiles: args.realm,
    adminUser: args['admin-user'],
    adminPassword: args['admin-password'],
    quiet: args.quiet,
  });
  const stop = () => idp.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  if (error instanceof RealmFileError) console.error(`error: ${error.message}`);
  else if (error?.code === 'EADDRINUSE') console.error(`error: port ${port} is already in use`);
  else console.error(error);
  process.exit(1);
}
