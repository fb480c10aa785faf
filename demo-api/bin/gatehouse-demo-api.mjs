#!/usr/bin/env node
// Starts the demo APIs (demo-api/README.md): gatehouse-demo-api [--port 3010] [--issuer URL] [--origins a,b,…] [--public-url URL] [--allow-bearer]
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const usage =
  'usage: gatehouse-demo-api [--port 3010] [--host 127.0.0.1] [--issuer http://localhost:8080/realms/gatehouse]\n' +
  '                          [--client-id gatehouse-shell] [--origins http://localhost:3000,http://localhost:3001,…]\n' +
  '                          [--public-url http://localhost:3010] [--allow-bearer] [--quiet]\n' +
  'The issuer can also come from GATEHOUSE_DEMO_API_ISSUER. Tokens must be access tokens (typ Bearer, with exp) of the\n' +
  "shell's client (azp, --client-id) for one API alone: /profile wants aud profile-api, /admin admin-api, /reports\n" +
  'reports-api (decisions/0055), bound to a DPoP key and sent as Authorization: DPoP with a proof of it whose\n' +
  'htu is --public-url (default http://localhost:<port>) and the path. --allow-bearer (or GATEHOUSE_DEMO_API_ALLOW_BEARER=1)\n' +
  'takes unbound tokens as Authorization: Bearer too.';

/** The command line's options; a malformed one ends the process with the usage. */
function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '3010' },
        host: { type: 'string', default: '127.0.0.1' },
        issuer: { type: 'string' },
        'client-id': { type: 'string', default: 'gatehouse-shell' },
        origins: { type: 'string', default: '' },
        'public-url': { type: 'string' },
        'allow-bearer': { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
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
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port wants a port number, not "${args.port}".\n${usage}`);
  process.exit(2);
}
const issuer = args.issuer ?? process.env.GATEHOUSE_DEMO_API_ISSUER;
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

const publicUrl = args['public-url'];
if (publicUrl !== undefined && (!URL.canParse(publicUrl) || !/^https?:$/.test(new URL(publicUrl).protocol))) {
  console.error(`--public-url: "${publicUrl}" is not an http(s) URL.\n${usage}`);
  process.exit(2);
}
const allowBearer = args['allow-bearer'] || process.env.GATEHOUSE_DEMO_API_ALLOW_BEARER === '1';

register();
const { startDemoApi } = await import('../src/index.js');
try {
  const api = await startDemoApi({
    port,
    host: args.host,
    issuer,
    clientId: args['client-id'],
    origins,
    publicUrl,
    requireDpop: !allowBearer,
    quiet: args.quiet,
  });
  console.log(
    `demo API on ${api.url}: /profile, /admin, /reports, each for a token of ${api.issuer} for its own audience alone` +
      ` (profile-api, admin-api, reports-api), ${allowBearer ? 'DPoP-bound or bearer' : 'DPoP-bound only'}` +
      ` (proofs for ${api.publicUrl}); CORS for ${origins.length > 0 ? origins.join(' ') : 'no origin'}`,
  );
  const stop = () => void api.close().then(() => process.exit(0));
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
