#!/usr/bin/env node
// Starts the session-events service (session-events/README.md).
import { runService, serviceCommandLine } from '@gatehouse/demo-api/cli';
import { register } from 'tsx/esm/api';

const usage =
  'usage: gatehouse-session-events [--port 3020] [--host 127.0.0.1] [--issuer http://localhost:8080/realms/gatehouse]\n' +
  '                                [--client-id gatehouse-shell] [--origins http://localhost:3000,…] [--public-url URL]\n' +
  '                                [--database-url postgres://user@host:5432/db] [--quiet]\n' +
  'The issuer can also come from GATEHOUSE_SESSION_EVENTS_ISSUER, the database from GATEHOUSE_SESSION_EVENTS_DATABASE_URL.\n' +
  'Without a database the process works alone, in memory.';

const { values: args, port, origins, publicUrl } = serviceCommandLine(usage, '3020', { 'database-url': { type: 'string' } });
const databaseUrl = /** @type {string | undefined} */ (args['database-url']) ?? process.env.GATEHOUSE_SESSION_EVENTS_DATABASE_URL;

register();
const { startSessionEvents } = await import('../src/index.js');
await runService(
  () =>
    startSessionEvents({
      port,
      host: /** @type {string} */ (args.host),
      issuer: /** @type {string | undefined} */ (args.issuer) ?? process.env.GATEHOUSE_SESSION_EVENTS_ISSUER,
      clientId: /** @type {string} */ (args['client-id']),
      origins,
      publicUrl,
      databaseUrl,
      quiet: args.quiet === true,
    }),
  (service) =>
    `session events on ${service.url}: POST /backchannel-logout (logout tokens of ${service.issuer}), GET /events` +
    ` (proofs for ${service.publicUrl}/events); ${databaseUrl ? 'shared through PostgreSQL' : 'this process alone, in memory'};` +
    ` CORS for ${origins.length > 0 ? origins.join(' ') : 'no origin'}`,
  port,
);
