#!/usr/bin/env node
// `npm run test:keycloak`: the browser suites against a real Keycloak 26 instead of the dev identity provider
// (decisions/0034), for what depends on the provider: the dev and production suites run only their tests tagged
// `@idp` (e2e/README.md lists them and says why each one is or is not), the auth-lib and HTTPS suites run whole
// (every test there is about the session against the provider), plus what only Keycloak can show. Starts
// Keycloak once (tooling/testkit/src/keycloak.cjs: fetched with Maven, Java 21+, the demo realm imported), runs
// each suite with GATEHOUSE_IDP=keycloak, stops Keycloak, and prints what ran on it and how long each part took.
// `.ci/run` runs it after `npm test`; `npm test` itself needs no Java.
//
//   npm run test:keycloak                 every suite below
//   npm run test:keycloak -- dev auth-lib  only the named ones
//   npm run test:keycloak -- production -- session-revoked   the named Playwright suites, with these Playwright arguments
//                                                             (after the suite's own `--grep @idp`: a spec file narrows it)

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JavaNotFoundError } from '@gatehouse/testkit/java';
import { KeycloakRunnerError, startKeycloak } from '@gatehouse/testkit/keycloak';
import { killOnExit } from '@gatehouse/testkit/processes';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * `ownKeycloak`: the suite starts the Keycloaks it needs itself (not the one on :8080).
 * @typedef {{ name: string, cwd: string, args: string[], command?: string, ownKeycloak?: boolean }} Suite
 */

/**
 * The tag of the tests whose assertions depend on the identity provider (sign-in, sessions, refresh, sign-out,
 * step-up, token contents, account and user-info); in the dev and production suites only these run on Keycloak.
 * The rest (headers, CSP, remote failures, builds and installs) proved what they prove in `npm test`.
 */
const IDP_TAG = '@idp';

/** @type {Suite[]} */
const SUITES = [
  { name: 'dev', cwd: join(ROOT, 'e2e'), args: ['playwright', 'test', '--grep', IDP_TAG] },
  {
    name: 'production',
    cwd: join(ROOT, 'e2e'),
    args: ['playwright', 'test', '-c', 'playwright.production.config.ts', '--grep', IDP_TAG],
  },
  { name: 'auth-lib', cwd: join(ROOT, 'auth-lib'), args: ['playwright', 'test', '-c', 'test/browser/playwright.config.ts'] },
  // What only Keycloak can show: the realm file's step-up flow, web origins, the frame's /init, brute force, languages.
  { name: 'realm', cwd: join(ROOT, 'e2e'), args: ['playwright', 'test', '-c', 'playwright.keycloak.config.ts'] },
  // The same requests to both providers, compared (dev-idp/README.md, "Measured against Keycloak").
  { name: 'differential', cwd: join(ROOT, 'dev-idp'), command: 'npm', args: ['run', 'test:differential'] },
  // The HTTPS suite with Keycloak behind its TLS nginx: its fixtures start one Keycloak per topology with
  // --hostname <the topology's public URL, on the suite's free port> and --proxy-headers xforwarded (and
  // --http-relative-path /auth for the proxied one), from homes of their own (.keycloak/https*). Last, so the
  // Keycloak on :8080 is stopped before it.
  { name: 'https', cwd: join(ROOT, 'e2e'), args: ['playwright', 'test', '-c', 'playwright.https.config.ts'], ownKeycloak: true },
  // Open pages through a Keycloak cluster's failures and restarts (decisions/0095): two nodes in production mode
  // on a throwaway PostgreSQL (Debian's postgresql), behind nginx, started by the suite (.keycloak/cluster-a, -b).
  { name: 'cluster', cwd: join(ROOT, 'e2e'), args: ['playwright', 'test', '-c', 'playwright.cluster.config.ts'], ownKeycloak: true },
];

/** @param {string} message */
function say(message) {
  process.stderr.write(`\x1b[1m[test:keycloak] ${message}\x1b[0m\n`);
}

/** @param {number} ms */
function seconds(ms) {
  return `${(ms / 1000).toFixed(0)} s`;
}

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const wanted = split === -1 ? argv : argv.slice(0, split);
/** Passed on to each chosen suite's Playwright: spec files, -g, --repeat-each, --project … */
const playwrightArgs = split === -1 ? [] : argv.slice(split + 1);
const unknown = wanted.filter((name) => !SUITES.some((suite) => suite.name === name));
if (unknown.length > 0) {
  console.error(`unknown suite ${unknown.join(', ')}; choose from ${SUITES.map((suite) => suite.name).join(', ')}`);
  process.exit(2);
}
const suites = wanted.length > 0 ? SUITES.filter((suite) => wanted.includes(suite.name)) : SUITES;
const notPlaywright = suites.filter((suite) => suite.command !== undefined);
if (playwrightArgs.length > 0 && notPlaywright.length > 0) {
  console.error(
    `arguments after "--" go to Playwright, and ${notPlaywright.map((suite) => suite.name).join(', ')} is not a Playwright suite; name only Playwright suites, e.g. \`npm run test:keycloak -- production -- session-revoked\``,
  );
  process.exit(2);
}

/**
 * Runs one suite with its output passed through; resolves to its exit code, Playwright's closing counts
 * ("27 passed", "1 skipped") and the start-ups of the Keycloaks the suite started itself
 * ("https://sso.idp-vendor.test:41233: 9.1 s", printed by e2e/https/support/identityProvider.ts).
 *
 * @param {Suite} suite
 * @param {string | undefined} keycloakUrl the running Keycloak (the differential test reads KEYCLOAK_URL)
 * @returns {Promise<{ code: number, counts: string[], startUps: string[] }>}
 */
function runSuite(suite, keycloakUrl) {
  const child = spawn(suite.command ?? 'npx', [...suite.args, ...playwrightArgs], {
    cwd: suite.cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, GATEHOUSE_IDP: 'keycloak', ...(keycloakUrl ? { KEYCLOAK_URL: keycloakUrl } : {}) },
  });
  const stopChild = killOnExit(() => [child]);
  /** @type {string[]} */
  const counts = [];
  /** @type {string[]} */
  const startUps = [];
  child.stdout?.on('data', (chunk) => {
    process.stdout.write(chunk);
    for (const line of chunk.toString().split('\n')) {
      const startUp = /^\[keycloak\] (\S+): ready in (\S+ s)/.exec(line);
      if (startUp) startUps.push(`${startUp[1]}: ${startUp[2]}`);
      const count = /^\s+(\d+ (?:passed|failed|skipped|flaky|did not run|interrupted))\b/.exec(line)?.[1];
      if (count) counts.push(count);
      const nodeCount = /^ℹ (pass|fail|skipped) (\d+)/.exec(line);
      if (nodeCount) counts.push(`${nodeCount[2]} ${{ pass: 'passed', fail: 'failed', skipped: 'skipped' }[nodeCount[1] ?? 'pass']}`);
    }
  });
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      stopChild();
      resolve({ code: code ?? (signal ? 1 : 0), counts, startUps });
    });
  });
}

/** @type {import('@gatehouse/testkit/keycloak').RunningKeycloak | undefined} */
let keycloak;
const began = Date.now();
/** @type {string[]} */
const summary = [];
if (suites.some((suite) => !suite.ownKeycloak)) {
  try {
    keycloak = await startKeycloak();
  } catch (error) {
    if (error instanceof KeycloakRunnerError || error instanceof JavaNotFoundError) {
      process.stderr.write(`\n[test:keycloak] ${error.message}\n\n`);
      process.exit(1);
    }
    throw error;
  }
  summary.push(
    `Keycloak: ready in ${seconds(Date.now() - began)} (${keycloak.freshImport ? 'new database, realm imported' : 'existing database'})`,
  );
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.on(signal, () => void (keycloak?.stop() ?? Promise.resolve()).then(() => process.exit(130)));

let failed = false;
for (const [index, suite] of suites.entries()) {
  // The Keycloak on :8080 is stopped once no suite left needs it (the rest bring their own).
  if (keycloak && suites.slice(index).every((next) => next.ownKeycloak)) {
    await keycloak.stop();
    keycloak = undefined;
  }
  say(`${suite.name} suite against Keycloak (${[...suite.args, ...playwrightArgs].join(' ')})`);
  const started = Date.now();
  const { code, counts, startUps } = await runSuite(suite, keycloak?.url);
  if (code !== 0) failed = true;
  summary.push(
    `${suite.name}: ${counts.join(', ') || 'no result line'} in ${seconds(Date.now() - started)}${code === 0 ? '' : ` (exit code ${code})`}`,
    ...startUps.map((startUp) => `  its Keycloak ${startUp}`),
  );
}
await keycloak?.stop();
summary.push(`total: ${seconds(Date.now() - began)}`);
say(`against Keycloak ${failed ? 'FAILED' : 'passed'}:\n  ${summary.join('\n  ')}`);
process.exit(failed ? 1 : 0);
