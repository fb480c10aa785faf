#!/usr/bin/env node
// `npm run test:keycloak`: the browser suites against a real Keycloak 26 instead of the dev identity provider
// (decisions/0034), for what depends on the provider: the dev and production suites run only their tests tagged
// `@idp` (e2e/README.md lists them and says why each one is or is not), the auth-lib and HTTPS suites run whole
// (every test there is about the session against the provider), plus what only Keycloak can show. Starts
// Keycloak once (tooling/testkit/src/keycloak.ts: fetched with Maven, Java 21+, the demo realm imported), runs
// each suite with GATEHOUSE_IDP=keycloak, stops Keycloak, and prints what ran on it and how long each part took.
// `.ci/run` runs it beside `npm test`, in a network namespace of its own (after it where none can be made); `npm test`
// itself needs no Java.
//
// In lanes, side by side (decisions/0080): the suites of one lane run one after the other, the lanes at once. A
// suite gets a lane of its own only when it shares no fixed port (:3000–3003, :4000–4003) and no file it writes
// with the others: the HTTPS suite (its own Keycloaks and nginx on free ports), then the cluster suite (its own
// PostgreSQL, two Keycloak nodes, nginx on free ports; Debian's `postgresql` must be installed), run beside the rest,
// which run on the Keycloak on :8080. Both lanes mostly wait (token lifespans, session checks, Keycloak start-ups), so the run takes
// about as long as its longer lane. Each output line then starts with its suite's name.
//
//   npm run test:keycloak                 every suite below
//   npm run test:keycloak -- dev auth-lib  only the named ones
//   npm run test:keycloak -- --serial     every suite one after the other, as before 0080
//   npm run test:keycloak -- production -- session-revoked   the named Playwright suites, with these Playwright arguments
//                                                             (after the suite's own `--grep @idp`: a spec file narrows it)

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { JavaNotFoundError } from '@gatehouse/testkit/java';
import { KeycloakRunnerError, adminPassword, obtainKeycloak, startKeycloak } from '@gatehouse/testkit/keycloak';
import { ensureBuilds, runSuite, seconds, startRun } from './lanes.mjs';
import { KEYCLOAK_SUITES } from './suites.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const SUITES = KEYCLOAK_SUITES;
/** @typedef {import('./suites.mjs').KeycloakSuite} Suite */

/** @param {string} message */
function say(message) {
  process.stderr.write(`\x1b[1m[test:keycloak] ${message}\x1b[0m\n`);
}

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const ours = split === -1 ? argv : argv.slice(0, split);
const serial = ours.includes('--serial');
const wanted = ours.filter((arg) => arg !== '--serial');
/** Passed on to each chosen suite's Playwright: spec files, -g, --repeat-each, --project … */
const playwrightArgs = split === -1 ? [] : argv.slice(split + 1);
const unknown = wanted.filter((name) => !SUITES.some((suite) => suite.name === name));
if (unknown.length > 0) {
  console.error(`unknown suite ${unknown.join(', ')}; choose from ${SUITES.map((suite) => suite.name).join(', ')}`);
  process.exit(2);
}
const suites = wanted.length > 0 ? SUITES.filter((suite) => wanted.includes(suite.name)) : SUITES.filter((suite) => !suite.optIn);
const notPlaywright = suites.filter((suite) => suite.command !== undefined);
if (playwrightArgs.length > 0 && notPlaywright.length > 0) {
  console.error(
    `arguments after "--" go to Playwright, and ${notPlaywright.map((suite) => suite.name).join(', ')} is not a Playwright suite; name only Playwright suites, e.g. \`npm run test:keycloak -- production -- session-revoked\``,
  );
  process.exit(2);
}

/**
 * A Keycloak runner's or Java's error is said plainly and ends the run; any other is thrown.
 *
 * @param {unknown} error @returns {never}
 */
function failedToStart(error) {
  if (error instanceof KeycloakRunnerError || error instanceof JavaNotFoundError) {
    process.stderr.write(`\n[test:keycloak] ${error.message}\n\n`);
    process.exit(1);
  }
  throw error;
}

/**
 * Once, before any suite: what every suite's first test asks of a Keycloak just started (an administrator's token, a
 * realm made and removed, a login form rendered), so that the first test does not pay for a cold JVM. On a busy
 * machine that first round took most of a test's 60 s (auth-lib's first test ran out of it at a load of ~20).
 *
 * @param {string} url
 */
async function warmUp(url) {
  const admin = await signInAsAdmin(url);
  const realm = `warm-up-${process.pid}`;
  const redirect = 'http://localhost:1/warm-up';
  await admin.realms.create({
    realm,
    enabled: true,
    clients: [{ clientId: 'warm-up', publicClient: true, standardFlowEnabled: true, redirectUris: [redirect] }],
  });
  try {
    const form = await fetch(
      `${url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({ client_id: 'warm-up', response_type: 'code', scope: 'openid', redirect_uri: redirect })}`,
    );
    if (form.status !== 200) throw new Error(`the warm-up realm's login form answered ${form.status}`);
    await form.body?.cancel();
  } finally {
    await admin.realms.del({ realm });
  }
}

/** The Keycloak on :8080 while a lane needs it. @type {import('@gatehouse/testkit/keycloak').RunningKeycloak | undefined} */
let keycloak;
const began = Date.now();
/** @type {string[]} */
const summary = [];
// Everything the run starts is registered; its end lists (and fails on) anything left running (decisions/0107).
const run = startRun('test:keycloak', { onSignal: async () => void (await keycloak?.stop()) });

/** @type {Suite[][]} */
const lanes = serial
  ? [suites]
  : [...new Set(suites.map((suite) => suite.lane))].map((lane) => suites.filter((suite) => suite.lane === lane));
if (lanes.length > 1) {
  // What lanes would otherwise do at once on a new machine: write the administrator's password file, fetch
  // Keycloak with Maven, make the builds.
  try {
    adminPassword();
    await obtainKeycloak({ dir: join(ROOT, '.keycloak') });
  } catch (error) {
    failedToStart(error);
  }
}
// The builds (or the wait for another run's, under their lock) while Keycloak starts: neither needs the other.
const building =
  lanes.length > 1 && lanes.filter((lane) => lane.some((suite) => suite.builds)).length > 1
    ? ensureBuilds('test:keycloak')
    : Promise.resolve();
building.catch(() => {}); // awaited below, after Keycloak's start
// Started before any lane, so no two Keycloaks start at once (a cold JVM's start is what a 2-core machine feels most).
if (suites.some((suite) => !suite.ownKeycloak)) {
  keycloak = await startKeycloak().catch(failedToStart);
  summary.push(
    `Keycloak: ready in ${seconds(Date.now() - began)} (${keycloak.freshImport ? 'new database, realm imported' : 'existing database'})`,
  );
  const warming = Date.now();
  await warmUp(keycloak.url);
  summary.push(`Keycloak: warmed up in ${seconds(Date.now() - warming)}`);
}
await building;
if (lanes.length > 1)
  say(`${lanes.length} lanes, side by side: ${lanes.map((lane) => lane.map((suite) => suite.name).join(' → ')).join('  |  ')}`);

/** The lanes that still have a suite to run on the Keycloak on :8080; the last one done stops it. */
let sharedUsers = lanes.filter((lane) => lane.some((suite) => !suite.ownKeycloak)).length;
async function releaseShared() {
  sharedUsers -= 1;
  if (sharedUsers === 0) {
    await keycloak?.stop();
    keycloak = undefined;
  }
}

let failed = false;
/** Runs a lane's suites one after the other. @param {Suite[]} lane */
async function runLane(lane) {
  let usesShared = lane.some((suite) => !suite.ownKeycloak);
  for (const [index, suite] of lane.entries()) {
    const url = suite.ownKeycloak ? undefined : keycloak?.url;
    // The Keycloak on :8080 is stopped once no suite left in any lane needs it (the rest bring their own).
    if (usesShared && !lane.slice(index).some((next) => !next.ownKeycloak)) {
      usesShared = false;
      await releaseShared();
    }
    say(`${suite.name} suite against Keycloak (${[...suite.args, ...playwrightArgs].join(' ')})`);
    const started = Date.now();
    const { code, counts, failures, startUps } = await runSuite(suite, {
      env: {
        ...process.env,
        GATEHOUSE_IDP: 'keycloak',
        ...(url ? { KEYCLOAK_URL: url } : {}),
        // the Keycloaks a suite starts itself start at a lower priority: beside them the shared one answers timed
        // tests (on a slow CI machine a refresh once took over 10 s while the HTTPS suite's Keycloaks started)
        ...(suite.ownKeycloak ? { GATEHOUSE_KEYCLOAK_START_NICE: '10' } : {}),
      },
      extraArgs: playwrightArgs,
      prefix: lanes.length > 1 ? `[${suite.name}] ` : '',
    });
    if (code !== 0) failed = true;
    summary.push(
      `${suite.name}: ${counts.join(', ') || 'no result line'} in ${seconds(Date.now() - started)}${code === 0 ? '' : ` (exit code ${code})`}${lanes.length > 1 ? ` (from ${seconds(started - began)} on)` : ''}`,
      // named here too: a CI log shows its last lines, where the runner's own list may be cut off
      ...failures.map((failure) => `  failed or flaky: ${failure}`),
      ...startUps.map((startUp) => `  its Keycloak ${startUp}`),
    );
  }
  if (usesShared) await releaseShared();
}
await Promise.all(lanes.map(runLane));
await keycloak?.stop();
const leftovers = await run.finish();
if (leftovers.length > 0) {
  failed = true;
  summary.push(`LEFT RUNNING (now stopped; a spec or fixture did not stop what it started):\n    ${leftovers.join('\n    ')}`);
} else summary.push('left running: nothing (no process of the run, no fixed port bound)');
summary.push(`total: ${seconds(Date.now() - began)}${lanes.length > 1 ? ` (${lanes.length} lanes side by side)` : ''}`);
say(`against Keycloak ${failed ? 'FAILED' : 'passed'}:\n  ${summary.join('\n  ')}`);
process.exit(failed ? 1 : 0);
