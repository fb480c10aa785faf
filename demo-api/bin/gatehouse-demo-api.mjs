#!/usr/bin/env node
// Starts the demo APIs (demo-api/README.md): gatehouse-demo-api [--port 3010] [--issuer URL] [--origins a,b,…] [--public-url URL] [--allow-bearer]
import { register } from 'tsx/esm/api';
import { runService, serviceCommandLine } from './serviceCli.mjs';

const usage =
  'usage: gatehouse-demo-api [--port 3010] [--host 127.0.0.1] [--issuer http://localhost:8080/realms/gatehouse]\n' +
  '                          [--client-id gatehouse-shell] [--origins http://localhost:3000,http://localhost:3001,…]\n' +
  '                          [--public-url http://localhost:3010] [--allow-bearer] [--quiet]\n' +
  'The issuer can also come from GATEHOUSE_DEMO_API_ISSUER. Tokens must be access tokens (typ Bearer, with exp) of the\n' +
  "shell's client (azp, --client-id) for one API alone: /profile wants aud profile-api, /admin admin-api, /reports\n" +
  'reports-api (decisions/0055), bound to a DPoP key and sent as Authorization: DPoP with a proof of it whose\n' +
  'htu is --public-url (default http://localhost:<port>) and the path. --allow-bearer (or GATEHOUSE_DEMO_API_ALLOW_BEARER=1)\n' +
  'takes unbound tokens as Authorization: Bearer too.';

const {
  values: args,
  port,
  origins,
  publicUrl,
} = serviceCommandLine(usage, '3010', { 'allow-bearer': { type: 'boolean', default: false } });
const issuer = /** @type {string | undefined} */ (args.issuer) ?? process.env.GATEHOUSE_DEMO_API_ISSUER;
const allowBearer = args['allow-bearer'] === true || process.env.GATEHOUSE_DEMO_API_ALLOW_BEARER === '1';

register();
const { startDemoApi } = await import('../src/index.js');
await runService(
  () =>
    startDemoApi({
      port,
      host: /** @type {string} */ (args.host),
      issuer,
      clientId: /** @type {string} */ (args['client-id']),
      origins,
      publicUrl,
      requireDpop: !allowBearer,
      quiet: args.quiet === true,
    }),
  (api) =>
    `demo API on ${api.url}: /profile, /admin, /reports, each for a token of ${api.issuer} for its own audience alone` +
    ` (profile-api, admin-api, reports-api), ${allowBearer ? 'DPoP-bound or bearer' : 'DPoP-bound only'}` +
    ` (proofs for ${api.publicUrl}); CORS for ${origins.length > 0 ? origins.join(' ') : 'no origin'}`,
  port,
);
