#!/usr/bin/env node
// `npm test`: every check and every test of the repository, in three lanes side by side (decisions/0081, 0087).
//
// The suites are defined in scripts/suites.mjs. First the preflight (always: on a fresh clone it installs the packages), then one after the other lint, format
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
//   npm run test:unit                 every workspace's unit tests alone (the fast loop: no check, no browser)
//   npm test -- auth-lib-browser https   only the named suites, in their lanes, without the checks (the preflight runs)
//   npm test -- --except registry fresh-clone   every suite but the named ones (e.g. inside a network namespace:
//                                     these two install from the network)

import { spawnSync } from 'node:child_process';
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
// the suites (scripts/suites.mjs), listed after the preflight: it lists the workspaces the preflight installed
const { npmTestSuites } = await import('./suites.mjs');
/** @typedef {import('./suites.mjs').Suite} Suite */
// Everything the run starts is registered; its end lists (and fails on) anything left running (decisions/0107).
const run = startRun('npm test');

const SUITES = npmTestSuites();

/** @param {string} message */
function say(message) {
  process.stderr.write(`\x1b[1m[npm test] ${message}\x1b[0m\n`);
}

const argv = process.argv.slice(2);
const serial = argv.includes('--serial');
const except = argv.includes('--except');
// `--unit` (`npm run test:unit`): every workspace's unit tests, the fast loop; no browser, no check before them
const unitOnly = argv.includes('--unit');
const named = argv.filter((arg) => arg !== '--serial' && arg !== '--except' && arg !== '--unit');
const unknown = named.filter((name) => !SUITES.some((suite) => suite.name === name));
if (unknown.length > 0) {
  console.error(`unknown suite ${unknown.join(', ')}; choose from ${SUITES.map((suite) => suite.name).join(', ')}`);
  process.exit(2);
}
const suites = unitOnly
  ? SUITES.filter((suite) => suite.unit)
  : named.length === 0
    ? SUITES
    : SUITES.filter((suite) => (except ? !named.includes(suite.name) : named.includes(suite.name)));

/** @type {string[]} */
const summary = [`preflight: passed in ${seconds(Date.now() - began)}`];

// The checks, one after the other; the first that fails ends the run (only when every suite runs).
if (!unitOnly && (named.length === 0 || except)) {
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

if (suites.some((suite) => suite.builds)) {
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
