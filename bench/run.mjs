#!/usr/bin/env node
// `npm run bench`: builds every app for production (timed), measures a dev-server rebuild, serves
// the builds with the production topology (nginx, one origin per app, the dev identity provider),
// drives headless Chromium through cold loads, prints a table and writes bench/results.json.
// Not part of `npm test`: figures on a shared machine are noisy, so they are compared within a run
// (medians, with min and max) and never asserted in a timed test. Method: bench/README.md.
//
//   node bench/run.mjs [--loads 12] [--skip-build] [--skip-keycloak] [--skip-cross-site]
//     [--provider-window 600 | --no-provider-cost] [--profiles fast,cpu4x] [--revocations 3] [--revocation-only]
//     [--out bench/results.json]
//
// --profiles: the device profiles of the page keys (bench/lib/profiles.mjs): `fast` (this machine; every other key is
// this profile's too) and `cpu4x` (Chromium's CPU throttled 4×: the page keys again, suffixed `_cpu4x`). Default both.
//
// --revocations: how many times an administrator ends an untouched page's session (bench/lib/revocation.mjs);
// --revocation-only: that stage alone (on the dev provider, then on Keycloak unless --skip-keycloak) and, unless
// --no-provider-cost, the provider cost's browsers without Keycloak's CPU part; no page loads, no cross-site keys.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK_DIR = join(REPO_ROOT, 'bench/.work');

const { values: args } = parseArgs({
  options: {
    loads: { type: 'string', default: '12' },
    'skip-build': { type: 'boolean', default: false },
    // what signed-in browsers cost the provider, against Keycloak (bench/lib/providerCost.mjs): seconds per scenario
    'provider-window': { type: 'string', default: '600' },
    'no-provider-cost': { type: 'boolean', default: false },
    'skip-keycloak': { type: 'boolean', default: false },
    'skip-cross-site': { type: 'boolean', default: false },
    profiles: { type: 'string', default: 'fast,cpu4x' },
    // an administrator ends an untouched page's session (bench/lib/revocation.mjs): repetitions per provider
    revocations: { type: 'string', default: '3' },
    'revocation-only': { type: 'boolean', default: false },
    out: { type: 'string', default: join(REPO_ROOT, 'bench/results.json') },
  },
});

// First the preflight, as `npm start`'s and `npm test`'s: Node, the lockfile's packages (`npm ci` on a fresh clone),
// every program the parts this run leaves in need later (nginx, Chromium, openssl, Java 21+, Maven, wrk: installed as
// root on Debian, else a stop within seconds that names the command) and Keycloak, fetched now. Nothing from
// node_modules is loaded before it has run (the imports below).
const partFlags = ['skip-cross-site', 'skip-keycloak', 'no-provider-cost'].filter((flag) => args[/** @type {keyof typeof args} */ (flag)]);
// --revocation-only leaves the cross-site keys out
if (args['revocation-only'] && !partFlags.includes('skip-cross-site')) partFlags.push('skip-cross-site');
const preflightArgs = [join(REPO_ROOT, 'scripts/preflight.mjs'), 'bench', ...partFlags.map((flag) => `--${flag}`)];
const preflight = spawnSync(process.execPath, preflightArgs, { stdio: 'inherit' });
if (preflight.status !== 0) process.exit(preflight.status ?? 1);

const { APPS, BASELINE_APPS, BUILDS_PER_APP, buildAll, buildDirOf } = await import('./lib/build.mjs');
const { launchBrowser } = await import('./lib/browser.mjs');
const {
  BASELINE,
  alternatingLoads,
  apiCalls,
  concurrentTokens,
  configWithRemotes,
  copiesOnPage,
  publicLoad,
  remoteLoad,
  remoteOverhead,
  secondTabLoads,
  shellInitialJs,
  signIn,
  startupWithConfig,
  tokensFiveTabs,
} = await import('./lib/measure.mjs');
const { measureProviderCost, providerCostRatio, providerCostTable } = await import('./lib/providerCost.mjs');
const { authOverheadMs } = await import('./lib/overhead.mjs');
const { measureCrossSite } = await import('./lib/crossSite.mjs');
const { measureOnKeycloak, startBenchKeycloak } = await import('./lib/keycloak.mjs');
const { measureRebuilds } = await import('./lib/rebuild.mjs');
const { measureRevocation } = await import('./lib/revocation.mjs');
const { GOAL_KEYS, table } = await import('./lib/report.mjs');
const { KIB, round, summarize } = await import('./lib/stats.mjs');
const { PAGE_KEYS, PROFILES, profilesOf } = await import('./lib/profiles.mjs');
const { startTopology } = await import('./lib/topology.mjs');

/** @typedef {import('./lib/build.mjs').App} App */
/** @typedef {import('./lib/measure.mjs').CountedFile} CountedFile */
/** @typedef {import('./lib/report.mjs').GoalKey} GoalKey */
/** @typedef {import('./lib/stats.mjs').Summary} Summary */
/** @typedef {import('../deploy/nginx/render.mjs').ShellConfig} ShellConfig */

/**
 * The details behind one setup's figures, as results.json holds them.
 *
 * @typedef {object} Details
 * @property {Record<string, number[]>} [build_s] every build's seconds, per app
 * @property {Array<CountedFile & { encoding: string }>} [shell_initial_js]
 * @property {CountedFile[]} [remote_overhead]
 * @property {CountedFile[]} [remote_app_code]
 * @property {Awaited<ReturnType<typeof copiesOnPage>>} [copies]
 * @property {{ remotes_3: Summary, remotes_100: Summary }} [first_paint_ms]
 * @property {Awaited<ReturnType<typeof concurrentTokens>>} [tokens]
 * @property {{ per_cycle: number[], failed_get_token: string[][] }} [tokens_5_tabs]
 * @property {{ version: string, started_in_ms: number }} [keycloak] the Keycloak of the sign-in keys on Keycloak
 * @property {Array<Awaited<ReturnType<typeof measureRevocation>>['details']>} [revocation] each provider's revocation stage:
 *   every run's ms per page, the logout call's own ms, the cap
 * @property {Record<string, { gatehouse: number, baseline: number }>} [cross_site_provider_pages] provider pages per cross-site load
 * @property {import('./lib/measure.mjs').ApiCheck[]} [second_tab_api] each second tab's own API call: its answer and how the token went
 * @property {{ first: number[], warm: number[][], preflights: number[][], requests: import('./lib/measure.mjs').ApiCheck[], proof_sign_ms: number[] }} [api_calls]
 *   every timed call (ms, per load), the CORS preflights during each call, how the last load's calls carried the token,
 *   Gatehouse: one DPoP proof's signing (hash and ES256) in the page apart from a call, per load
 */

/**
 * One setup's figures (Gatehouse's or the baseline's), filled in as the run goes: one per key, the spread
 * behind each median, and the details.
 *
 * @typedef {Partial<Record<GoalKey, number>> & {
 *   spread: Partial<Record<string, Summary>>,
 *   details: Details,
 *   byProfile: Record<string, number>,
 * }} Figures `byProfile`: the page keys of the profiles other than `fast`, with their suffix (`…_cpu4x`); `spread`
 *   holds both, each under its key
 */

/** @typedef {(typeof PAGE_KEYS)[number]} PageKey */

const LOADS = Math.max(10, Number(args.loads));
/** the revocation stage alone (and the provider cost's browsers): no page loads */
const REVOCATION_ONLY = args['revocation-only'];
const REVOCATIONS = Math.max(1, Number(args.revocations));
const RUN_PROFILES = REVOCATION_ONLY ? [] : profilesOf(args.profiles);
/** the `fast` profile: the page keys as before profiles existed, and every key that is not a page's */
const FAST = RUN_PROFILES.some((profile) => profile.suffix === '');
/** Timed API calls per load of api_call_ms: the first, then the warm ones. */
const API_CALLS_PER_LOAD = 6;

const log = (/** @type {string} */ message) => process.stderr.write(`[bench] ${message}\n`);
/** @param {readonly (number | null)[]} values @param {number} digits @returns {Summary} */
const spreadOf = (values, digits) => {
  const s = summarize(values);
  return { median: round(s.median, digits), min: round(s.min, digits), max: round(s.max, digits), n: s.n };
};

/**
 * Sets one page key of one profile: the key itself for `fast` (suffix ''), else `<key><suffix>` in `byProfile`.
 *
 * @param {Figures} target @param {PageKey} key @param {string} suffix @param {number} value @param {Summary} [spread]
 */
function setPageKey(target, key, suffix, value, spread) {
  if (suffix === '') target[key] = value;
  else target.byProfile[`${key}${suffix}`] = value;
  if (spread) target.spread[`${key}${suffix}`] = spread;
}

/**
 * A stage's page keys (cross-site, Keycloak: `fast`'s under their own names, the other profiles' with their suffix)
 * into one setup's figures.
 *
 * @param {Figures} target @param {Record<string, number>} values @param {Record<string, Summary>} spread
 */
function assignPageKeys(target, values, spread) {
  for (const [key, value] of Object.entries(values)) {
    const fast = PAGE_KEYS.find((pageKey) => pageKey === key);
    if (fast) target[fast] = value;
    else target.byProfile[key] = value;
  }
  Object.assign(target.spread, spread);
}

/**
 * The page-visible keys of one setup (Gatehouse or the baseline) from its cold-load timings, in one profile.
 *
 * @param {Figures} target @param {number[]} publicTimes @param {number[]} remoteTimes @param {string} label
 * @param {string} [suffix] the profile's (bench/lib/profiles.mjs)
 */
function recordVisibleTimes(target, publicTimes, remoteTimes, label, suffix = '') {
  const pub = spreadOf(publicTimes, 0);
  const rem = spreadOf(remoteTimes, 0);
  setPageKey(target, 'time_to_public_visible_ms', suffix, pub.median, pub);
  setPageKey(target, 'time_to_remote_visible_ms', suffix, rem.median, rem);
  setPageKey(target, 'auth_overhead_ratio', suffix, round(rem.median / pub.median, 2));
  setPageKey(target, 'auth_overhead_ms', suffix, authOverheadMs(pub, rem));
  log(`${label}: public ${pub.median} ms, remote ${rem.median} ms`);
}

async function main() {
  const startedAt = Date.now();
  mkdirSync(WORK_DIR, { recursive: true });
  /** @type {Figures} */
  const results = { spread: {}, details: {}, byProfile: {} };
  // the plain setup of bench/baseline, measured with the same keys in the same run
  /** @type {Figures} */
  const baseline = { spread: {}, details: {}, byProfile: {} };

  // 1. Production builds, one app at a time, each BUILDS_PER_APP times (cold); an app's figure is its
  //    median, build_s_per_app the median over the apps.
  /** @type {Record<string, string>} */
  let dists;
  const allApps = [...APPS, ...BASELINE_APPS];
  if (args['skip-build']) {
    dists = Object.fromEntries(allApps.map((app) => [app.name, join(WORK_DIR, 'builds', app.name, 'dist')]));
    for (const dir of Object.values(dists)) if (!existsSync(join(dir, 'index.html'))) throw new Error(`--skip-build: no build in ${dir}`);
    log('reusing the builds in bench/.work/builds');
  } else {
    const builds = await buildAll(REPO_ROOT, WORK_DIR, log, allApps, BUILDS_PER_APP);
    dists = builds.dirs;
    const secondsOf = (/** @type {App} */ app) => builds.seconds[app.name] ?? [];
    const perApp = (/** @type {App[]} */ apps) => Object.fromEntries(apps.map((app) => [app.name, summarize(secondsOf(app)).median]));
    /** @type {Array<[Figures, App[]]>} */
    const setups = [
      [results, APPS],
      [baseline, BASELINE_APPS],
    ];
    for (const [target, apps] of setups) {
      const medians = perApp(apps);
      const spread = spreadOf(Object.values(medians), 2);
      target.build_s_per_app = spread.median;
      target.spread.build_s_per_app = spread;
      target.details.build_s = Object.fromEntries(apps.map((app) => [app.name, secondsOf(app).map((s) => round(s, 2))]));
    }
  }

  if (FAST) {
    // 2. Dev-server rebuilds after an edit of one source file of the profile remote.
    const rebuilds = await measureRebuilds({
      repoRoot: REPO_ROOT,
      remoteDir: 'remotes/profile',
      copyDir: join(WORK_DIR, 'profile-dev'),
      edits: LOADS,
    });
    const rebuildSpread = spreadOf(rebuilds, 0);
    results.rebuild_ms = rebuildSpread.median;
    results.spread.rebuild_ms = rebuildSpread;
    log(`rebuild: median ${rebuildSpread.median} ms`);
  }
  // 3. The production topology and the browser.
  const topology = await startTopology({ repoRoot: REPO_ROOT, workDir: WORK_DIR, dirs: dists, log });
  const browser = await launchBrowser();
  /** @type {import('./lib/keycloak.mjs').Keycloak | null} started in step 10, stopped after step 11 */
  let keycloak = null;
  /** @type {Array<Awaited<ReturnType<typeof measureRevocation>>>} step 8b's and step 10's */
  const revocations = [];
  try {
    const { identityProvider } = topology.config;
    await publicLoad(browser); // warm nginx and the provider (their own start-up is not the page's)
    const session = await signIn(browser);
    await remoteLoad(browser, session);

    if (FAST) {
      // 4. Cold loads, public and signed in, interleaved so that noise hits both alike.
      /** @type {number[]} */
      const publicTimes = [];
      /** @type {number[]} */
      const remoteTimes = [];
      /** @type {number[]} */
      const verifyTimes = [];
      /** @type {number[]} */
      const basePublicTimes = [];
      /** @type {number[]} */
      const baseRemoteTimes = [];
      await publicLoad(browser, { origins: BASELINE }); // warm the baseline's nginx too
      for (let i = 0; i < LOADS; i++) {
        // the baseline's pair first, then Gatehouse's: alternating, so that noise hits both alike
        const basePub = await publicLoad(browser, { keep: i === 0, origins: BASELINE });
        basePublicTimes.push(basePub.paint);
        if (i === 0) {
          const js = await shellInitialJs(basePub, BASELINE);
          baseline.shell_initial_js_gz_kb = round(js.bytes / KIB, 1);
          baseline.details.shell_initial_js = js.files;
          await basePub.context.close();
        }
        const baseRem = await remoteLoad(browser, session, { keep: i === 0, origins: BASELINE });
        baseRemoteTimes.push(baseRem.paint);
        if (i === 0) {
          const overhead = await remoteOverhead(baseRem, baseline.details.shell_initial_js, buildDirOf(dists, 'baselineRemote'), BASELINE);
          baseline.remote_overhead_gz_kb = round(overhead.bytes / KIB, 1);
          baseline.details.remote_overhead = overhead.overhead;
          baseline.details.remote_app_code = overhead.appCode;
          await baseRem.context.close();
        }
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
        verifyTimes.push(/** @type {number} */ (rem.verify));
        if (first) {
          const overhead = await remoteOverhead(rem, results.details.shell_initial_js, buildDirOf(dists, 'profile'));
          results.remote_overhead_gz_kb = round(overhead.bytes / KIB, 1);
          results.details.remote_overhead = overhead.overhead;
          results.details.remote_app_code = overhead.appCode;
          await rem.context.close();
        }
      }
      recordVisibleTimes(results, publicTimes, remoteTimes, 'Gatehouse');
      const verify = spreadOf(verifyTimes, 1);
      results.remote_verify_ms = verify.median;
      results.spread.remote_verify_ms = verify;
      log(`the profile remote's release verified in ${verify.median} ms after its manifest arrived (median of ${LOADS})`);
      recordVisibleTimes(baseline, basePublicTimes, baseRemoteTimes, 'baseline');

      // 4b. A second tab of a browser that is signed in (a live tab on /profile) opens /profile; each one's own API call
      // (Gatehouse: a DPoP proof with the key from IndexedDB) is checked after its paint.
      results.details.second_tab_api = [];
      baseline.details.second_tab_api = [];
      const secondTab = spreadOf(await secondTabLoads(browser, session, LOADS, undefined, results.details.second_tab_api), 0);
      results.time_to_remote_visible_second_tab_ms = secondTab.median;
      results.spread.time_to_remote_visible_second_tab_ms = secondTab;
      const baseSecondTab = spreadOf(await secondTabLoads(browser, session, LOADS, BASELINE, baseline.details.second_tab_api), 0);
      baseline.time_to_remote_visible_second_tab_ms = baseSecondTab.median;
      baseline.spread.time_to_remote_visible_second_tab_ms = baseSecondTab;
      const answered = (/** @type {import('./lib/measure.mjs').ApiCheck[]} */ checks) =>
        checks.filter((c) => c.answer.startsWith('Signed in as')).length;
      log(
        `second tab: ${secondTab.median} ms (baseline ${baseSecondTab.median} ms); its API answered ${answered(results.details.second_tab_api)}/${LOADS}` +
          ` (baseline ${answered(baseline.details.second_tab_api)}/${LOADS})`,
      );
    }

    // 4d. The same page loads in the other device profiles (bench/lib/profiles.mjs: Chromium's CPU throttled), the
    // baseline's and Gatehouse's alternating as above, then the second tabs: each key with the profile's suffix.
    if (!FAST) await publicLoad(browser, { origins: BASELINE }); // warm the baseline's nginx (step 4 did otherwise)
    for (const { suffix, cpuRate, name } of RUN_PROFILES.filter((profile) => profile.suffix !== '')) {
      const times = await alternatingLoads(browser, session, LOADS, cpuRate);
      recordVisibleTimes(results, times.gatehouse.pub, times.gatehouse.rem, `Gatehouse (${name})`, suffix);
      recordVisibleTimes(baseline, times.baseline.pub, times.baseline.rem, `baseline (${name})`, suffix);
      /** @type {Record<'gatehouse' | 'baseline', import('./lib/measure.mjs').ApiCheck[]>} */
      const checks = { gatehouse: [], baseline: [] };
      const second = spreadOf(await secondTabLoads(browser, session, LOADS, undefined, checks.gatehouse, cpuRate), 0);
      const baseSecond = spreadOf(await secondTabLoads(browser, session, LOADS, BASELINE, checks.baseline, cpuRate), 0);
      setPageKey(results, 'time_to_remote_visible_second_tab_ms', suffix, second.median, second);
      setPageKey(baseline, 'time_to_remote_visible_second_tab_ms', suffix, baseSecond.median, baseSecond);
      const answered = (/** @type {import('./lib/measure.mjs').ApiCheck[]} */ list) =>
        list.filter((c) => c.answer.startsWith('Signed in as')).length;
      log(
        `second tab (${name}): ${second.median} ms (baseline ${baseSecond.median} ms); its API answered ${answered(checks.gatehouse)}/${LOADS}` +
          ` (baseline ${answered(checks.baseline)}/${LOADS})`,
      );
    }

    if (FAST) {
      // 4c. A remote's API call with its token warm, as the visitor feels it: the profile remote's own caller, timed in
      // the page; the two setups' loads alternate. The first call of a load apart (its CORS preflight), then the rest.
      /** @type {Array<[Figures, import('./lib/measure.mjs').Origins | undefined]>} */
      const apiSetups = [
        [baseline, BASELINE],
        [results, undefined],
      ];
      for (const [target] of apiSetups) target.details.api_calls = { first: [], warm: [], preflights: [], requests: [], proof_sign_ms: [] };
      for (let i = 0; i < LOADS; i++) {
        for (const [target, origins] of apiSetups) {
          const calls = await apiCalls(browser, session, origins ? { origins, calls: API_CALLS_PER_LOAD } : { calls: API_CALLS_PER_LOAD });
          const details = /** @type {NonNullable<Details['api_calls']>} */ (target.details.api_calls);
          details.first.push(round(calls.times[0] ?? NaN, 1));
          details.warm.push(calls.times.slice(1).map((ms) => round(ms, 1)));
          details.preflights.push(calls.preflights);
          details.requests = calls.requests;
          if (calls.signMs !== null) details.proof_sign_ms.push(round(calls.signMs, 2));
        }
      }
      for (const [target, origins] of apiSetups) {
        const details = /** @type {NonNullable<Details['api_calls']>} */ (target.details.api_calls);
        const first = spreadOf(details.first, 1);
        const warm = spreadOf(details.warm.flat(), 1);
        target.api_call_first_ms = first.median;
        target.spread.api_call_first_ms = first;
        target.api_call_ms = warm.median;
        target.spread.api_call_ms = warm;
        log(`API call (${origins ? 'baseline' : 'Gatehouse'}): first ${first.median} ms, then ${warm.median} ms`);
      }

      // 5. One copy of React and keycloak-js with every remote visited.
      const copies = await copiesOnPage(browser, session, dists);
      results.react_copies = copies.react;
      results.keycloak_js_copies = copies.keycloakJs;
      results.details.copies = copies;

      // 6. Start-up with 100 registered remotes against 3 (config.json intercepted in both cases).
      const three = configWithRemotes(topology.config, 3);
      const hundred = configWithRemotes(topology.config, 100);
      /** @type {Record<3 | 100, Array<{ fcp: number | null, paint: number }>>} */
      const paints = { 3: [], 100: [] };
      /** @type {Array<[3 | 100, ShellConfig]>} */
      const series = [
        [3, three],
        [100, hundred],
      ];
      for (let i = 0; i < LOADS; i++) {
        // the two alternate which goes first
        for (const [count, config] of i % 2 === 0 ? series : [...series].reverse()) {
          paints[count].push(await startupWithConfig(browser, config, session));
        }
      }
      const fcp3 = spreadOf(
        paints[3].map((p) => p.fcp),
        0,
      );
      const fcp100 = spreadOf(
        paints[100].map((p) => p.fcp),
        0,
      );
      results.startup_ratio_100_vs_3_remotes = round(fcp100.median / fcp3.median, 2);
      results.details.first_paint_ms = { remotes_3: fcp3, remotes_100: fcp100 };
      log(`first paint: 3 remotes ${fcp3.median} ms, 100 remotes ${fcp100.median} ms`);

      // 7. 50 concurrent getToken() with a token about to expire (last: it shortens the token lifespan).
      const tokens = await concurrentTokens(browser, session, { idpUrl: identityProvider.url, realm: identityProvider.realm });
      results.token_requests_for_50_concurrent_getToken = tokens.requests;
      results.details.tokens = tokens;

      // 8. The same 50 calls spread over 5 tabs of one browser: what auth-lib's cross-tab session must earn.
      const { perCycle, failed } = await tokensFiveTabs(browser, session, { idpUrl: identityProvider.url, realm: identityProvider.realm });
      results.token_requests_per_refresh_5_tabs = Math.max(...perCycle);
      results.details.tokens_5_tabs = { per_cycle: perCycle, failed_get_token: failed };
      log(`5 tabs: token requests per refresh cycle ${perCycle.join(', ')}; failed getToken() ${failed.map((f) => f.length).join(', ')}`);
    }
    // 8b. An administrator ends the session of untouched pages (Gatehouse's and the baseline's, visible and hidden):
    // how long until each notices. Last on the dev provider: it ends alice's sessions, `session`'s too.
    revocations.push(await measureRevocation({ browser, providerUrl: identityProvider.url, repetitions: REVOCATIONS, log }));

    // 9. Over HTTPS with the provider on another site (third-party cookies allowed, blocked) and on the shell's.
    if (!args['skip-cross-site'] && !REVOCATION_ONLY) {
      const crossSite = await measureCrossSite({
        repoRoot: REPO_ROOT,
        workDir: WORK_DIR,
        dists,
        loads: LOADS,
        log,
        deviceProfiles: RUN_PROFILES,
      });
      assignPageKeys(results, crossSite.gatehouse, crossSite.spread);
      assignPageKeys(baseline, crossSite.baseline, crossSite.baselineSpread);
      results.details.cross_site_provider_pages = crossSite.providerPages;
    }

    // 10. The sign-in keys again with Keycloak 26 in the provider's place (last: it stops the dev provider). The
    // same Keycloak then serves the provider cost (one start: ~20-60 s of JVM start-up, more on a loaded machine).
    if (!args['skip-keycloak']) {
      await topology.stopIdentityProvider();
      keycloak = await startBenchKeycloak({ workDir: WORK_DIR, realmFile: topology.realmFile, log });
      if (!REVOCATION_ONLY) {
        const onKeycloak = await measureOnKeycloak({ browser, keycloak, loads: LOADS, log, profiles: RUN_PROFILES });
        assignPageKeys(results, onKeycloak.gatehouse.values, onKeycloak.gatehouse.spread);
        assignPageKeys(baseline, onKeycloak.baseline.values, onKeycloak.baseline.spread);
      }
      results.details.keycloak = { version: keycloak.home.split('-').pop() ?? '', started_in_ms: keycloak.startedInMs };
      // 10b. The revocation stage again, Keycloak's administrator ending the session (keys `…_keycloak`)
      const adminPassword = readFileSync(join(WORK_DIR, 'keycloak', 'admin-password'), 'utf8').trim();
      revocations.push(
        await measureRevocation({ browser, providerUrl: keycloak.url, repetitions: REVOCATIONS, log, adminPassword, suffix: '_keycloak' }),
      );
    }
  } catch (error) {
    await keycloak?.stop();
    throw error;
  } finally {
    await browser.close();
    await topology.stop();
  }

  // 11. What signed-in browsers cost the identity provider, on Keycloak 26.7 (its own topology, after the one above;
  // the Keycloak of step 10 when it ran).
  /** @type {Awaited<ReturnType<typeof measureProviderCost>> | null} */
  let providerCost = null;
  try {
    if (!args['no-provider-cost'])
      providerCost = await measureProviderCost({
        repoRoot: REPO_ROOT,
        workDir: WORK_DIR,
        dists,
        log,
        windowSeconds: Number(args['provider-window']),
        keycloak,
        keycloakCpu: !REVOCATION_ONLY,
      });
  } finally {
    await keycloak?.stop();
  }

  /** @type {Record<string, number | null>} */
  const ordered = {};
  // the revocation keys (a setup that did not notice within the cap: null, and why in `notes`)
  /** @type {Record<string, null>} */
  const baselineNotNoticed = {};
  /** @type {Record<string, string>} */
  const notes = {};
  for (const revocation of revocations) {
    for (const [key, value] of Object.entries(revocation.gatehouse)) if (value !== null) results[/** @type {GoalKey} */ (key)] = value;
    for (const [key, value] of Object.entries(revocation.baseline)) {
      if (value === null) baselineNotNoticed[key] = null;
      else baseline[/** @type {GoalKey} */ (key)] = value;
    }
    Object.assign(notes, revocation.details.notes);
    Object.assign(results.spread, revocation.spread.gatehouse);
    Object.assign(baseline.spread, revocation.spread.baseline);
  }
  if (revocations.length > 0) results.details.revocation = revocations.map((revocation) => revocation.details);
  for (const key of GOAL_KEYS) ordered[key] = results[key] ?? null;
  // the page keys of the other profiles, after the `fast` keys, in PAGE_KEYS' order
  const profileKeys = PROFILES.filter((profile) => profile.suffix !== '').flatMap((profile) =>
    PAGE_KEYS.map((key) => `${key}${profile.suffix}`),
  );
  for (const key of profileKeys) if (key in results.byProfile) ordered[key] = results.byProfile[key] ?? null;
  /** @param {Figures} figures @param {string} key */
  const valueOf = (figures, key) => (key in figures.byProfile ? figures.byProfile[key] : figures[/** @type {GoalKey} */ (key)]);
  // Gatehouse ÷ baseline for every key the baseline has (sizes and times: below 1 is better), each profile against
  // the baseline measured in the same profile
  /** @type {Record<string, number>} */
  const ratio = {};
  /** @type {Record<string, number>} */
  const baselineValues = {};
  for (const key of [...GOAL_KEYS, ...profileKeys]) {
    const base = valueOf(baseline, key);
    const value = valueOf(results, key);
    if (typeof base === 'number') baselineValues[key] = base;
    if (typeof base === 'number' && typeof value === 'number' && base > 0) ratio[key] = round(value / base, 2);
  }
  const output = {
    ...ordered,
    ...providerCost?.gatehouse,
    baseline: {
      ...baselineValues,
      ...baselineNotNoticed,
      ...providerCost?.baseline,
    },
    // why a figure is null: a page that did not notice within the revocation stage's cap
    notes,
    ratio: { ...ratio, ...(providerCost ? providerCostRatio(providerCost.gatehouse, providerCost.baseline) : {}) },
    spread: results.spread,
    details: {
      ...results.details,
      baseline: { spread: baseline.spread, ...baseline.details },
      ...(providerCost ? { provider_cost: providerCost.details } : {}),
    },
    // the machine is shared: its load says how far apart two runs' timings may be
    run: {
      date: new Date().toISOString(),
      loads: LOADS,
      profiles: Object.fromEntries(
        RUN_PROFILES.map((profile) => [profile.name, { suffix: profile.suffix, cpu_throttling_rate: profile.cpuRate }]),
      ),
      seconds: round((Date.now() - startedAt) / 1000, 0),
      node: process.version,
      cpus: os.cpus().length,
      loadavg: os.loadavg().map((l) => round(l, 1)),
    },
  };
  writeFileSync(args.out, `${JSON.stringify(output, null, 2)}\n`);
  console.log(table(output));
  if (providerCost) console.log(`\n${providerCostTable(providerCost)}`);
  log(`wrote ${args.out} (${output.run.seconds} s)`);
}

main().catch((error) => {
  console.error(`[bench] ${error.stack ?? error}`);
  process.exit(1);
});
