#!/usr/bin/env node
// `npm run bench`: builds every app for production (timed), measures a dev-server rebuild, serves
// the builds with the production topology (nginx, one origin per app, the dev identity provider),
// drives headless Chromium through cold loads, prints a table and writes bench/results.json.
// Not part of `npm test`: figures on a shared machine are noisy, so they are compared within a run
// (medians, with min and max) and never asserted in a timed test. Method: bench/README.md.
//
//   node bench/run.mjs [--loads 12] [--skip-build] [--out bench/results.json]

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { APPS, buildAll } from './lib/build.mjs';
import { launchBrowser } from './lib/browser.mjs';
import {
  concurrentTokens, configWithRemotes, copiesOnPage, publicLoad, remoteLoad, remoteOverhead,
  shellInitialJs, signIn, startupWithConfig,
} from './lib/measure.mjs';
import { measureRebuilds } from './lib/rebuild.mjs';
import { table } from './lib/report.mjs';
import { KIB, round, summarize } from './lib/stats.mjs';
import { startTopology } from './lib/topology.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK_DIR = join(REPO_ROOT, 'bench/.work');

const { values: args } = parseArgs({
  options: {
    loads: { type: 'string', default: '12' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(REPO_ROOT, 'bench/results.json') },
  },
});
const LOADS = Math.max(10, Number(args.loads));

const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const spreadOf = (values, digits) => {
  const s = summarize(values);
  return { median: round(s.median, digits), min: round(s.min, digits), max: round(s.max, digits), n: s.n };
};

async function main() {
  const startedAt = Date.now();
  mkdirSync(WORK_DIR, { recursive: true });
  const results = { spread: {}, details: {} };

  // 1. Production builds, one app at a time.
  let dists;
  if (args['skip-build']) {
    dists = Object.fromEntries(APPS.map((app) => [app.name, join(WORK_DIR, 'builds', app.name, 'dist')]));
    for (const dir of Object.values(dists)) if (!existsSync(join(dir, 'mf-manifest.json'))) throw new Error(`--skip-build: no build in ${dir}`);
    log('reusing the builds in bench/.work/builds');
  } else {
    const builds = await buildAll(REPO_ROOT, WORK_DIR, log);
    dists = builds.dirs;
    const spread = spreadOf(Object.values(builds.seconds), 2);
    results.build_s_per_app = spread.median;
    results.spread.build_s_per_app = spread;
    results.details.build_s = Object.fromEntries(Object.entries(builds.seconds).map(([app, s]) => [app, round(s, 2)]));
  }

  // 2. Dev-server rebuilds after an edit of one source file of the profile remote.
  const rebuilds = await measureRebuilds({ repoRoot: REPO_ROOT, remoteDir: 'remotes/profile', copyDir: join(WORK_DIR, 'profile-dev'), edits: LOADS });
  const rebuildSpread = spreadOf(rebuilds, 0);
  results.rebuild_ms = rebuildSpread.median;
  results.spread.rebuild_ms = rebuildSpread;
  log(`rebuild: median ${rebuildSpread.median} ms`);

  // 3. The production topology and the browser.
  const topology = await startTopology({ repoRoot: REPO_ROOT, workDir: WORK_DIR, dists, dirs: dists, log });
  const browser = await launchBrowser();
  try {
    const { identityProvider } = topology.config;
    await publicLoad(browser); // warm nginx and the provider (their own start-up is not the page's)
    const session = await signIn(browser);
    await remoteLoad(browser, session);

    // 4. Cold loads, public and signed in, interleaved so that noise hits both alike.
    const publicTimes = [];
    const remoteTimes = [];
    for (let i = 0; i < LOADS; i++) {
      const first = i === 0;
      const pub = await publicLoad(browser, { keep: first });
      publicTimes.push(pub.paint);
      if (first) {
        const js = await shellInitialJs(pub);
        results.shell_initial_js_gz_kb = round(js.bytes / KIB, 1);
        results.details.shell_initial_js = js.files;
        await pub.context.close();
      }
      const rem = await remoteLoad(browser, session, { keep: first });
      remoteTimes.push(rem.paint);
      if (first) {
        const overhead = await remoteOverhead(rem, results.details.shell_initial_js, dists.profile);
        results.remote_overhead_gz_kb = round(overhead.bytes / KIB, 1);
        results.details.remote_overhead = overhead.overhead;
        results.details.remote_app_code = overhead.appCode;
        await rem.context.close();
      }
    }
    const pubSpread = spreadOf(publicTimes, 0);
    const remSpread = spreadOf(remoteTimes, 0);
    results.time_to_public_visible_ms = pubSpread.median;
    results.time_to_remote_visible_ms = remSpread.median;
    results.spread.time_to_public_visible_ms = pubSpread;
    results.spread.time_to_remote_visible_ms = remSpread;
    results.auth_overhead_ratio = round(remSpread.median / pubSpread.median, 2);
    log(`public ${pubSpread.median} ms, remote ${remSpread.median} ms`);

    // 5. One copy of React and keycloak-js with every remote visited.
    const copies = await copiesOnPage(browser, session, dists);
    results.react_copies = copies.react;
    results.keycloak_js_copies = copies.keycloakJs;
    results.details.copies = copies;

    // 6. Start-up with 100 registered remotes against 3 (config.json intercepted in both cases).
    const three = configWithRemotes(topology.config, 3);
    const hundred = configWithRemotes(topology.config, 100);
    const paints = { 3: [], 100: [] };
    for (let i = 0; i < LOADS; i++) {
      for (const [count, config] of i % 2 === 0 ? [[3, three], [100, hundred]] : [[100, hundred], [3, three]]) {
        paints[count].push(await startupWithConfig(browser, config));
      }
    }
    const fcp3 = spreadOf(paints[3].map((p) => p.fcp), 0);
    const fcp100 = spreadOf(paints[100].map((p) => p.fcp), 0);
    results.startup_ratio_100_vs_3_remotes = round(fcp100.median / fcp3.median, 2);
    results.details.first_paint_ms = { remotes_3: fcp3, remotes_100: fcp100 };
    log(`first paint: 3 remotes ${fcp3.median} ms, 100 remotes ${fcp100.median} ms`);

    // 7. 50 concurrent getToken() with a token about to expire (last: it shortens the token lifespan).
    const tokens = await concurrentTokens(browser, session, { idpUrl: identityProvider.url, realm: identityProvider.realm });
    results.token_requests_for_50_concurrent_getToken = tokens.requests;
    results.details.tokens = tokens;
  } finally {
    await browser.close();
    await topology.stop();
  }

  const ordered = {};
  for (const key of ['shell_initial_js_gz_kb', 'remote_overhead_gz_kb', 'react_copies', 'keycloak_js_copies',
    'token_requests_for_50_concurrent_getToken', 'startup_ratio_100_vs_3_remotes', 'time_to_public_visible_ms',
    'time_to_remote_visible_ms', 'auth_overhead_ratio', 'build_s_per_app', 'rebuild_ms']) ordered[key] = results[key] ?? null;
  const output = {
    ...ordered,
    spread: results.spread,
    details: results.details,
    // the machine is shared: its load says how far apart two runs' timings may be
    run: { date: new Date().toISOString(), loads: LOADS, seconds: round((Date.now() - startedAt) / 1000, 0), node: process.version, cpus: os.cpus().length, loadavg: os.loadavg().map((l) => round(l, 1)) },
  };
  writeFileSync(args.out, `${JSON.stringify(output, null, 2)}\n`);
  console.log(table(output));
  log(`wrote ${args.out} (${output.run.seconds} s)`);
}

main().catch((error) => {
  console.error(`[bench] ${error.stack ?? error}`);
  process.exit(1);
});
