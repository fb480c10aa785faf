#!/usr/bin/env node
// `npm test`: every check and every test of the repository, in three lanes side by side (decisions/0081, 0087).
//
// First the preflight (always: on a fresh clone it installs the packages), then one after the other lint, format
// check, typecheck (the run stops at the first that fails, as before), then the production builds the production,
// HTTPS and registry suites share (made once, when a source is newer than them). Then three lanes at once, the suites of each one after the other:
//
//   fixed ports  the dev suite (:3000–3003, :3010, its provider on :8080) → the production suite (:4000–4003, :4010,
//                :8080) → the fresh clone's build and preview (the README's ports)
//   units        each workspace's unit tests (jest, node --test), on free ports → the registry suite (Verdaccio and a
//                remote's installs; free ports, no browser)
//   browsers     dev-idp's browser suite → auth-lib's browser suite → the HTTPS suite, on free ports
//
// A suite is outside the first lane only when it holds no fixed port and writes no file a suite of another lane
// writes; the browser suites mostly wait (token lifespans, session checks, servers starting, npm installs), so the
// run takes about as long as its longest lane. While lanes run each output line starts with `[suite]`; a summary
// gives each suite's result, its time and when it started. Each package's own `npm test` still runs its tests alone.
//
//   npm test                          everything above, in the three lanes
//   npm test -- --serial              every suite one after the other
//   npm test -- auth-lib-browser https   only the named suites, in their lanes, without the checks (the preflight runs)
//   npm test -- --except registry fresh-clone   every suite but the named ones (e.g. inside a network namespace:
//                                     these two install from the network)

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const began = Date.now();
// The preflight first, for every run, before anything from node_modules is loaded (lanes.mjs needs
// @gatehouse/testkit) and before the workspaces are listed (`npm query` reads the installed tree): on a fresh clone
// it is what installs the lockfile's packages.
const preflight = spawnSync(process.execPath, [join(ROOT, 'scripts/preflight.mjs'), 'test'], { cwd: ROOT, stdio: 'inherit' });
if (preflight.status !== 0) {
  process.stderr.write('\x1b[1m[npm test] preflight failed (above); no test ran.\x1b[0m\n');
  process.exit(1);
}
const { ensureBuilds, runLanes, runSuite, seconds, startRun } = await import('./lanes.mjs');
// Everything the run starts is registered; its end lists (and fails on) anything left running (decisions/0107).
const run = startRun('npm test');

/**
 * `lane`: 'fixed' (the default), 'units' or 'browsers'. A suite may be outside the fixed lane only when it uses no
 *   fixed port (:3000–3003, :3010, :4000–4003, :4010, :8080, :9000) and writes no file a suite of another lane writes.
 * @typedef {{ name: string, cwd: string, args: string[], command?: string, lane?: 'fixed' | 'units' | 'browsers' }} Suite
 */

/**
 * The workspaces' test scripts that `npm test` splits into a unit part (run in the unit step) and browser or e2e
 * suites (run as suites of their own below). Every other workspace's `npm test` runs whole, as its unit tests.
 * @type {Record<string, string | null>} workspace → the script with its unit tests (null: none)
 */
const SPLIT = {
  'auth-lib': 'test:unit',
  'dev-idp': 'test:node',
  e2e: null,
};

/** Each workspace with a test script, in the root package.json's order: its unit tests as one suite. */
function unitSuites() {
  /** @type {string[]} */
  const workspaces = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces;
  const found = spawnSync('npm', ['query', '.workspace'], { cwd: ROOT, encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`npm query .workspace failed: ${found.stderr}`);
  /** @type {Array<{ location: string, scripts?: Record<string, string> }>} */
  const packages = JSON.parse(found.stdout);
  // npm query lists the installed tree: none there means no unit test would run, which must not pass as a green run
  if (packages.length === 0)
    throw new Error('npm query .workspace found no workspace: node_modules is not installed. Run `npm ci`, then `npm test` again.');
  const rank = (/** @type {string} */ location) =>
    workspaces.findIndex((pattern) => (pattern.endsWith('/*') ? location.startsWith(pattern.slice(0, -1)) : location === pattern));
  return packages
    .filter((pkg) => pkg.scripts?.test)
    .sort((a, b) => rank(a.location) - rank(b.location))
    .flatMap((pkg) => {
      const script = pkg.location in SPLIT ? SPLIT[pkg.location] : 'test';
      if (!script) return [];
      const name = pkg.location.replace(/^(tooling|remotes)\//, '');
      return [/** @type {Suite} */ ({ name, cwd: join(ROOT, pkg.location), command: 'npm', args: ['run', script], lane: 'units' })];
    });
}

const E2E = join(ROOT, 'e2e');
/** @type {Suite[]} */
const SUITES = [
  // The system as `npm start` runs it: the dev servers on :3000–3003, the provider on :8080.
  { name: 'dev', cwd: E2E, args: ['playwright', 'test'] },
  // The builds behind nginx on :4000–4003, the provider on :8080.
  { name: 'production', cwd: E2E, args: ['playwright', 'test', '-c', 'playwright.production.config.ts'] },
  ...unitSuites(),
  // A provider per worker and a page server, each on a free port; results in dev-idp/test-results.
  { name: 'dev-idp-browser', cwd: join(ROOT, 'dev-idp'), command: 'npm', args: ['run', 'test:browser'], lane: 'browsers' },
  // A dev provider per worker and a page server per test, each on a free port; results in auth-lib/test/browser/test-results.
  { name: 'auth-lib-browser', cwd: join(ROOT, 'auth-lib'), command: 'npm', args: ['run', 'test:browser'], lane: 'browsers' },
  // nginx and a provider per topology on free ports; results in .preview/https-results.
  { name: 'https', cwd: E2E, args: ['playwright', 'test', '-c', 'playwright.https.config.ts'], lane: 'browsers' },
  // A fresh clone's `npm run build` and `npm run preview` on the README's ports (:4000–4003, :4010, :8080), installs
  // from the network.
  {
    name: 'fresh-clone',
    cwd: E2E,
    args: ['playwright', 'test', '-c', 'playwright.registry.config.ts', 'fresh-clone', '--output', '../.preview/fresh-clone-results'],
  },
  // Verdaccio and a production shell on free ports, installs from the network; no browser. After the unit tests, in
  // their lane: it packs the packages as the production suite does (each `prepack` empties and rebuilds a package's
  // dist/), and scripts/packages.mjs has one pack wait for the other.
  {
    name: 'registry',
    cwd: E2E,
    args: ['playwright', 'test', '-c', 'playwright.registry.config.ts', 'remote-installs', '--output', '../.preview/registry-results'],
    lane: 'units',
  },
];

/** The suites that test the production builds (made once before the lanes). */
const USE_BUILDS = new Set(['production', 'https', 'fresh-clone', 'registry']);

/** @param {string} message */
function say(message) {
  process.stderr.write(`\x1b[1m[npm test] ${message}\x1b[0m\n`);
}

const argv = process.argv.slice(2);
const serial = argv.includes('--serial');
const except = argv.includes('--except');
const named = argv.filter((arg) => arg !== '--serial' && arg !== '--except');
const unknown = named.filter((name) => !SUITES.some((suite) => suite.name === name));
if (unknown.length > 0) {
  console.error(`unknown suite ${unknown.join(', ')}; choose from ${SUITES.map((suite) => suite.name).join(', ')}`);
  process.exit(2);
}
const suites = named.length === 0 ? SUITES : SUITES.filter((suite) => (except ? !named.includes(suite.name) : named.includes(suite.name)));

/** @type {string[]} */
const summary = [`preflight: passed in ${seconds(Date.now() - began)}`];

// The checks, one after the other; the first that fails ends the run (only when every suite runs).
if (named.length === 0 || except) {
  for (const [name, args] of /** @type {const} */ ([
    ['lint', ['run', 'lint']],
    ['format:check', ['run', 'format:check']],
    ['typecheck', ['run', 'typecheck']],
  ])) {
    const started = Date.now();
    const result = await runSuite({ name, cwd: ROOT, command: 'npm', args: [...args] });
    summary.push(`${name}: ${result.code === 0 ? 'passed' : `FAILED (exit code ${result.code})`} in ${seconds(Date.now() - started)}`);
    if (result.code !== 0) {
      await run.finish();
      say(`${name} failed (above); no test ran.\n  ${summary.join('\n  ')}`);
      process.exit(1);
    }
  }
}

if (suites.some((suite) => USE_BUILDS.has(suite.name))) {
  const started = Date.now();
  await ensureBuilds('npm test');
  summary.push(`production builds: ready in ${seconds(Date.now() - started)}`);
}

/** @type {Suite[][]} */
const lanes = serial
  ? [suites]
  : ['fixed', 'units', 'browsers']
      .map((lane) => suites.filter((suite) => (suite.lane ?? 'fixed') === lane))
      .filter((lane) => lane.length > 0);
if (lanes.length > 1)
  say(`${lanes.length} lanes, side by side: ${lanes.map((lane) => lane.map((suite) => suite.name).join(' → ')).join('  |  ')}`);

const lanesBegan = Date.now();
let failed = false;
await runLanes(lanes, async (suite, prefix) => {
  say(`${suite.name}: ${suite.command ?? 'npx'} ${suite.args.join(' ')} (in ${suite.cwd.slice(ROOT.length) || '.'})`);
  const { code, counts, failures, ms } = await runSuite(suite, { prefix });
  if (code !== 0) failed = true;
  summary.push(
    `${suite.name}: ${counts.join(', ') || (code === 0 ? 'passed' : 'no result line')} in ${seconds(ms)}${code === 0 ? '' : ` (FAILED, exit code ${code})`}${lanes.length > 1 ? ` (from ${seconds(Date.now() - ms - lanesBegan)} on, lane ${suite.lane ?? 'fixed'})` : ''}`,
    // named here too: a CI log shows its last lines, where the runner's own list may be cut off
    ...failures.map((failure) => `  failed or flaky: ${failure}`),
  );
});
const leftovers = await run.finish();
if (leftovers.length > 0) {
  failed = true;
  summary.push(`LEFT RUNNING (now stopped; a spec or fixture did not stop what it started):\n    ${leftovers.join('\n    ')}`);
} else summary.push('left running: nothing (no process of the run, no fixed port bound)');
summary.push(
  `total: ${seconds(Date.now() - began)}${lanes.length > 1 ? ` (the lanes ${seconds(Date.now() - lanesBegan)}, ${lanes.length} side by side)` : ''}`,
);
say(`${failed ? 'FAILED' : 'passed'}:\n  ${summary.join('\n  ')}`);
process.exit(failed ? 1 : 0);
