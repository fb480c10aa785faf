#!/usr/bin/env node
// Starts the session-events service (session-events/README.md).
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const usage =
  'usage: gatehouse-session-events [--port 3020] [--host 127.0.0.1] [--issuer http://localhost:8080/realms/gatehouse]\n' +
  '                                [--client-id gatehouse-shell] [--origins http://localhost:3000,…] [--public-url URL]\n' +
  '                                [--database-url postgres://user@host:5432/db] [--quiet]\n' +
  'The issuer can also come from GATEHOUSE_SESSION_EVENTS_ISSUER, the database from GATEHOUSE_SESSION_EVENTS_DATABASE_URL.\n' +
  'Without a database the process works alone, in memory.';

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string', default: '3020' },
      host: { type: 'string', default: '127.0.0.1' },
      issuer: { type: 'string' },
      'client-id': { type: 'string', default: 'gatehouse-shell' },
      origins: { type: 'string', default: '' },
      'public-url': { type: 'string' },
      'database-url': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }).values;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port wants a port number, not "${args.port}".\n${usage}`);
  process.exit(2);
}
const origins = args.origins
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean);
for (const origin of origins) {
  if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
    console.error(`--origins: "${origin}" is not an origin (scheme://host[:port], no path).\n${usage}`);
    process.exit(2);
  }
}
const databaseUrl = args['database-url'] ?? process.env.GATEHOUSE_SESSION_EVENTS_DATABASE_URL;

register();
const { startSessionEvents } = await import('../src/index.js');
try {
  const service = await startSessionEvents({
    port,
    host: args.host,
    issuer: args.issuer ?? process.env.GATEHOUSE_SESSION_EVENTS_ISSUER,
    clientId: args['client-id'],
    origins,
    publicUrl: args['public-url'],
    databaseUrl,
    quiet: args.quiet,
  });
  console.log(
    `session events on ${service.url}: POST /backchannel-logout (logout tokens of ${service.issuer}), GET /events` +
      ` (proofs for ${service.publicUrl}/events); ${databaseUrl ? 'shared through PostgreSQL' : 'this process alone, in memory'};` +
      ` CORS for ${origins.length > 0 ? origins.join(' ') : 'no origin'}`,
  );
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
