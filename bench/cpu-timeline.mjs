#!/usr/bin/env node
// The critical path's CPU, Gatehouse beside the baseline (bench/JOURNAL.md, "Performance IV"): on cold loads of /profile signed in
// at the provider (the loads of time_to_remote_visible_ms), with Chromium's CPU throttled (the `cpu4x` profile,
// bench/lib/profiles.mjs), the page's main thread between navigation start and the profile remote's heading painted,
// from a DevTools trace (`Tracing.start`, devtools.timeline and the V8 sampling profiler's categories):
//
// - per step: the profile's samples, each one's time given to the code it ran (its leaf call frame, a builtin's to
//   the nearest caller with a script), named from the scripts' source maps and grouped (keycloak-js, token
//   verification, tab coordination, config/registry, telemetry, React, the federation runtime, …); the renderer's
//   own work (parsing, style, layout, paint) as `(program)` and garbage collection as `(garbage collector)`;
// - per chunk: compile and evaluation of each script (the trace's v8.compile and EvaluateScript events).
//
// Both setups' loads alternate (the baseline's first), as in the bench. Gatehouse's builds are the last bench run's
// (bench/.work/builds, with their hidden source maps); the baseline is built here once more with webpack-cli's
// `--devtool hidden-source-map` (the same code; the maps beside it, named by no script) into bench/.work/cpu-timeline.
//
//   node bench/cpu-timeline.mjs [--loads 3] [--cpu 4] [--skip-build] [--out bench/.work/cpu-timeline/timeline.json]
//
// Times are the throttled main thread's (ms of a 4× slower CPU: what the visitor of a slow device waits), medians over
// the loads. The tracing costs the page some time of its own, so the paint times here run above the bench's.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { coldLoad, launchBrowser } from './lib/browser.mjs';
import { APPS, BASELINE_APPS, buildApp } from './lib/build.mjs';
import { BASELINE, signIn } from './lib/measure.mjs';
import { readSourceMap } from './lib/sourceMap.mjs';
import { round, summarize } from './lib/stats.mjs';
import { ORIGINS, startTopology } from './lib/topology.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK_DIR = join(REPO_ROOT, 'bench/.work');
const TIMELINE_DIR = join(WORK_DIR, 'cpu-timeline');
const { values: args } = parseArgs({
  options: {
    loads: { type: 'string', default: '3' },
    cpu: { type: 'string', default: '4' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(TIMELINE_DIR, 'timeline.json') },
  },
});
const LOADS = Number(args.loads);
const CPU_RATE = Number(args.cpu);

/** The trace's categories: tasks and script events, the main thread's marks, the V8 sampling profiler. */
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'blink.user_timing',
  'loading',
  'toplevel',
  'disabled-by-default-v8.cpu_profiler',
];

/**
 * One trace event (Chrome's JSON trace format).
 *
 * @typedef {{ name: string, cat: string, ph: string, ts: number, dur?: number, pid: number, tid: number, id?: string,
 *   args?: { data?: Record<string, any> } }} TraceEvent
 */
/**
 * A node of the V8 profile in the trace (nodes arrive in the chunks, each once).
 *
 * @typedef {{ id: number, parent?: number, callFrame: { functionName: string, url?: string, lineNumber?: number, columnNumber?: number } }} ProfileNode
 */

/**
 * The steps a sample's source is grouped into, first match wins: [label, test on the source's path as sourceNamer
 * gives it: `node_modules/…`, `auth-lib/src/…`, `tooling/…`, `webpack/…` (webpack's runtime), `<app>/src/…` (an app's own
 * code: shell, profile, baseline host, baseline remote), `auth/index.ts` (the baseline's auth module)].
 *
 * @type {Array<[string, RegExp]>}
 */
const GROUPS = [
  ['keycloak-js', /^node_modules\/keycloak-js\//],
  [
    'auth-lib: its keycloak-js adapter (init options, callbacks, preload)',
    /^auth-lib\/src\/session\/(keycloak\/|keycloak\.|initOptions|keycloakCallbacks|preload)/,
  ],
  [
    'tokens: verification and parsing (jose, tokenVerifier, tokenSet)',
    /^node_modules\/jose\/|^auth-lib\/src\/session\/(tokens\/)?(tokenVerifier|tokenSet)\./,
  ],
  [
    'API tokens and DPoP (dpop, apis/, dpop/)',
    /^node_modules\/dpop\/|^auth-lib\/src\/session\/(apis\/|dpop\/|apiTokens|apiView|remoteView)/,
  ],
  ['tab coordination (tabs/: channel, leader, host, seed)', /^auth-lib\/src\/session\/(tabs\/|tab[A-Z]|otherTabs|seed)/],
  ['auth-lib: session watch (watch/)', /^auth-lib\/src\/session\/(watch\/|sessionWatch|watchSession|providerCheck|frameAvailability)/],
  ['telemetry (RemoteTimeline, FailureLog)', /^shell\/src\/registry\/(RemoteTimeline|FailureLog)\./],
  [
    'config and registry (config.json checks, RemoteRegistry)',
    /^tooling\/config\/|^shell\/src\/(config|registry)\/|^node_modules\/(ajv|fast-deep-equal)\//,
  ],
  ['auth-lib: the rest of the session (KeycloakSession, lifecycle, store, React bindings…)', /^auth-lib\//],
  ["baseline's auth module (keycloak-js init, token hand-over)", /^auth\/index\.ts$/],
  [
    'Module Federation runtime',
    /^node_modules\/@module-federation\/|\.federation|^webpack\/(runtime\/(federation|sharing|consumes|embed|remotes)|container-entry)/,
  ],
  ['webpack runtime (bootstrap, chunk loading)', /^webpack\//],
  ['React DOM and scheduler', /^node_modules\/(react-dom|scheduler)\//],
  ['React Router', /^node_modules\/react-router/],
  ['React', /^node_modules\/react\//],
  ['TanStack Query', /^node_modules\/@tanstack\//],
  ["remote's app code (profile / the baseline's Profile)", /^(profile|baseline remote)\/src\//],
  ["shell's / host's app code", /^(shell|baseline host)\/src\//],
  ['chunk code without a mapping (webpack glue)', /^no source map: /],
  ['provider pages (3p-cookie check, login-status frame)', /^provider: /],
];

/** @param {string} source @returns {string} */
function groupOf(source) {
  if (/^\(.*\)$/.test(source)) return source; // (program), (garbage collector)
  for (const [label, pattern] of GROUPS) if (pattern.test(source)) return label;
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  return pkg ? `node_modules/${pkg[1]}` : `other: ${source}`;
}

/** The apps' names in the sources' paths, by the topology's listener names. @type {Record<string, string>} */
const APP_LABELS = {
  shell: 'shell',
  profile: 'profile',
  admin: 'admin',
  reports: 'reports',
  baselineHost: 'baseline host',
  baselineRemote: 'baseline remote',
};

/** The build folders, by the topology's listener names; the baseline's from here, with their maps. */
function buildDirs() {
  /** @type {Record<string, string>} */
  const dirs = Object.fromEntries(APPS.map((app) => [app.name, join(WORK_DIR, 'builds', app.name, 'dist')]));
  for (const app of BASELINE_APPS) dirs[app.name] = join(TIMELINE_DIR, app.name, 'dist');
  return dirs;
}

/**
 * Names the source of a script position: the script's source map (beside it, or in dist-sourcemaps/ beside dist/),
 * found by the script's origin among the builds; a script with none by its origin and path.
 *
 * @param {Record<string, string>} dirs
 */
function sourceNamer(dirs) {
  /** @type {Map<string, ReturnType<typeof readSourceMap> | null>} */
  const maps = new Map();
  /** @type {Record<string, string>} */
  /** @type {Record<string, { dir: string, app: string }>} */
  const byOrigin = {};
  for (const [name, dir] of Object.entries(dirs)) {
    const origin = /** @type {Record<string, string>} */ (ORIGINS)[name];
    const app = APP_LABELS[name];
    if (origin && app) byOrigin[origin] = { dir, app };
  }
  /** @param {string} url */
  const mapOf = (url) => {
    if (maps.has(url)) return maps.get(url) ?? null;
    const { origin, pathname } = new URL(url);
    const dir = byOrigin[origin]?.dir;
    const file = dir
      ? [join(dir, `${pathname}.map`), join(dir, '..', 'dist-sourcemaps', `${pathname}.map`)].find((f) => existsSync(f))
      : undefined;
    const map = file ? readSourceMap(file) : null;
    maps.set(url, map);
    return map;
  };
  /** @param {string} url @param {number} line @param {number} column @returns {string} */
  return (url, line, column) => {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      return `script without a URL: ${url}`;
    }
    const source = mapOf(url)?.sourceAt(line, column);
    if (source) {
      // webpack://<name>/../../x → x; ./src/… → <app>/src/…
      const path = source
        .replace(/^webpack:\/\/[^/]*\//, '')
        .replace(/^(\.\.\/)+/, '')
        .replace(/^[^.][^:]*?\/(node_modules\/[^.])/, '$1'); // a package's own prefix (`javascript/node_modules/…`)
      return path.startsWith('./') ? `${byOrigin[parsed.origin]?.app ?? parsed.origin}/${path.slice(2)}` : path;
    }
    if (parsed.origin === ORIGINS.identityProvider)
      return `provider: ${parsed.pathname.replace(/^\/realms\/[^/]+\/protocol\/openid-connect\//, '…/')}`;
    return `no source map: ${parsed.origin === ORIGINS.shell || parsed.origin === ORIGINS.baselineHost ? '' : parsed.origin}${parsed.pathname}`;
  };
}

/**
 * The main thread's work of one traced load, between its navigation start and the heading's paint.
 *
 * @param {TraceEvent[]} events
 * @param {string} url the page's URL (its navigation start mark)
 * @param {number} paintMs the heading's paint on the page's clock
 * @param {ReturnType<typeof sourceNamer>} nameSource
 */
function analyse(events, url, paintMs, nameSource) {
  const starts = events.filter(
    (e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && String(e.args.data.documentLoaderURL ?? '').startsWith(url),
  );
  const nav = starts.at(-1);
  if (!nav) throw new Error(`cpu-timeline: no navigationStart of ${url} in the trace`);
  const from = nav.ts;
  const to = nav.ts + paintMs * 1000;
  const onMain = (/** @type {TraceEvent} */ e) => e.pid === nav.pid && e.tid === nav.tid;
  const clipped = (/** @type {TraceEvent} */ e) => Math.max(0, Math.min(to, e.ts + (e.dur ?? 0)) - Math.max(from, e.ts)) / 1000;

  // per chunk: compile and evaluation (complete events on the main thread)
  /** @type {Record<string, { compile: number, evaluate: number }>} */
  const chunks = {};
  /** @param {string} scriptUrl */
  const chunk = (scriptUrl) => {
    const short = scriptUrl.replace(ORIGINS.shell, 'shell:').replace(ORIGINS.baselineHost, 'host:').replace(ORIGINS.profile, 'profile:');
    const name = short.replace(ORIGINS.baselineRemote, 'remote:').replace(ORIGINS.identityProvider, 'provider:');
    chunks[name] ??= { compile: 0, evaluate: 0 };
    return chunks[name];
  };
  let tasks = 0;
  for (const e of events) {
    if (e.ph !== 'X' || !onMain(e)) continue;
    if (e.name === 'RunTask') tasks += clipped(e);
    const scriptUrl = e.args?.data?.url;
    if (!scriptUrl) continue;
    if (e.name === 'EvaluateScript') chunk(scriptUrl).evaluate += clipped(e);
    else if (e.name === 'v8.compile' || e.name === 'v8.compileModule') chunk(scriptUrl).compile += clipped(e);
  }

  // per step: the sampling profile of the main thread
  const profile = events.find((e) => e.name === 'Profile' && onMain(e));
  /** @type {Record<string, number>} */
  const groups = {};
  /** @type {Record<string, number>} */
  const sources = {};
  if (profile) {
    /** @type {Map<number, ProfileNode>} */
    const nodes = new Map();
    /** @type {number[]} */
    const samples = [];
    /** @type {number[]} */
    const times = [];
    let t = Number(profile.args?.data?.startTime ?? profile.ts);
    for (const e of events) {
      if (e.name !== 'ProfileChunk' || e.pid !== profile.pid || e.id !== profile.id) continue;
      const data = e.args?.data ?? {};
      for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
      const deltas = data.timeDeltas ?? [];
      (data.cpuProfile?.samples ?? []).forEach((/** @type {number} */ id, /** @type {number} */ i) => {
        t += deltas[i] ?? 0;
        samples.push(id);
        times.push(t);
      });
    }
    /** @type {Map<number, string>} */
    const sourceOfNode = new Map();
    /** @param {number} id @returns {string} */
    const sourceOf = (id) => {
      const cached = sourceOfNode.get(id);
      if (cached !== undefined) return cached;
      let node = nodes.get(id);
      const leaf = node;
      // a builtin (no script) counts for the nearest caller with one; GC, (program) and idle keep their own name
      while (node && !node.callFrame.url && node.parent !== undefined && !/^\(.*\)$/.test(node.callFrame.functionName))
        node = nodes.get(node.parent);
      const frame = (node ?? leaf)?.callFrame;
      const name = !frame
        ? '(unknown)'
        : frame.url
          ? nameSource(frame.url, frame.lineNumber ?? 0, frame.columnNumber ?? 0)
          : frame.functionName || '(anonymous builtin)';
      sourceOfNode.set(id, name);
      return name;
    };
    for (let i = 0; i < samples.length; i++) {
      const start = times[i] ?? 0;
      const end = times[i + 1] ?? start;
      const ms = (Math.min(to, end) - Math.max(from, start)) / 1000;
      if (ms <= 0) continue;
      const source = sourceOf(samples[i] ?? 0);
      if (source === '(idle)' || source === '(root)') continue;
      sources[source] = (sources[source] ?? 0) + ms;
      const group = groupOf(source);
      groups[group] = (groups[group] ?? 0) + ms;
    }
  }
  return { paintMs, tasksMs: tasks, groups, sources, chunks, sampled: Boolean(profile) };
}

/**
 * One traced cold load of /profile signed in at the provider, the CPU throttled.
 *
 * @param {import('./lib/browser.mjs').Browser} browser
 * @param {import('./lib/browser.mjs').StorageState} session
 * @param {string} shell
 */
async function tracedLoad(browser, session, shell) {
  /** @type {TraceEvent[]} */
  const events = [];
  /** @type {import('playwright-core').CDPSession | undefined} */
  let tracing;
  const url = `${shell}/profile`;
  const load = await coldLoad(browser, url, {
    elementId: 'profile-heading',
    storageState: session,
    cpuRate: CPU_RATE,
    beforeGoto: async (page, context) => {
      tracing = await context.newCDPSession(page);
      tracing.on('Tracing.dataCollected', ({ value }) => {
        for (const event of value) events.push(/** @type {TraceEvent} */ (/** @type {unknown} */ (event)));
      });
      await tracing.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: { recordMode: 'recordAsMuchAsPossible', includedCategories: CATEGORIES },
      });
    },
  });
  try {
    if (!tracing) throw new Error('cpu-timeline: tracing did not start');
    const cdp = tracing;
    const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
    await cdp.send('Tracing.end');
    await complete;
    return { events, url, paint: load.paint };
  } finally {
    await load.context.close();
  }
}

/** @param {number[]} values */
const median = (values) => round(summarize(values).median, 0);

/**
 * The medians of each name's ms over the loads (a load without the name counts 0).
 *
 * @param {Array<Record<string, number>>} perLoad
 * @returns {Record<string, number>}
 */
function medians(perLoad) {
  const names = new Set(perLoad.flatMap((load) => Object.keys(load)));
  return Object.fromEntries([...names].map((name) => [name, median(perLoad.map((load) => load[name] ?? 0))]));
}

/** @param {string[][]} rows */
function markdown(rows) {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)));
  const line = (/** @type {string[]} */ row) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(rows[0] ?? []), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

async function main() {
  mkdirSync(TIMELINE_DIR, { recursive: true });
  const dirs = buildDirs();
  for (const app of APPS)
    if (!existsSync(join(dirs[app.name] ?? '', 'index.html')))
      throw new Error(`no build of ${app.name} in bench/.work/builds: run \`npm run bench\` first`);
  for (const app of BASELINE_APPS) {
    const dir = dirs[app.name] ?? '';
    if (args['skip-build'] && existsSync(join(dir, 'index.html'))) continue;
    process.stderr.write(`[cpu-timeline] building ${app.name} with its source maps\n`);
    await buildApp(REPO_ROOT, app, dir, {}, ['--devtool', 'hidden-source-map']);
  }
  const nameSource = sourceNamer(dirs);
  const topology = await startTopology({ repoRoot: REPO_ROOT, workDir: WORK_DIR, dirs, log: () => undefined });
  const browser = await launchBrowser();
  /** @type {Record<'gatehouse' | 'baseline', Array<ReturnType<typeof analyse>>>} */
  const loads = { gatehouse: [], baseline: [] };
  try {
    const session = await signIn(browser);
    // warm-up: nginx's and the provider's first answers are not the page's
    await tracedLoad(browser, session, BASELINE.shell);
    await tracedLoad(browser, session, ORIGINS.shell);
    for (let i = 0; i < LOADS; i++) {
      for (const [setup, shell] of /** @type {const} */ ([
        ['baseline', BASELINE.shell],
        ['gatehouse', ORIGINS.shell],
      ])) {
        const trace = await tracedLoad(browser, session, shell);
        const analysed = analyse(trace.events, trace.url, trace.paint, nameSource);
        if (!analysed.sampled) throw new Error('cpu-timeline: the trace has no sampling profile of the main thread');
        loads[setup].push(analysed);
        process.stderr.write(`[cpu-timeline] ${setup} load ${i + 1}: heading at ${Math.round(trace.paint)} ms\n`);
      }
    }
  } finally {
    await browser.close();
    await topology.stop();
  }

  const summary = Object.fromEntries(
    /** @type {const} */ (['gatehouse', 'baseline']).map((setup) => {
      const list = loads[setup];
      return [
        setup,
        {
          paint_ms: median(list.map((l) => l.paintMs)),
          main_thread_tasks_ms: median(list.map((l) => l.tasksMs)),
          sampled_ms: median(list.map((l) => Object.values(l.groups).reduce((a, b) => a + b, 0))),
          steps_ms: medians(list.map((l) => l.groups)),
          sources_ms: medians(list.map((l) => l.sources)),
          chunks_ms: medians(
            list.map((l) => Object.fromEntries(Object.entries(l.chunks).map(([name, c]) => [name, c.compile + c.evaluate]))),
          ),
        },
      ];
    }),
  );
  const g = summary.gatehouse;
  const b = summary.baseline;
  if (!g || !b) throw new Error('cpu-timeline: no loads');

  const out = [];
  out.push(
    `CPU ${CPU_RATE}× slower, ${LOADS} cold loads of /profile each (signed in at the provider), medians; main thread from navigation start to the profile heading`,
    '',
    markdown([
      ['', 'Gatehouse', 'baseline'],
      ['profile heading painted (ms)', String(g.paint_ms), String(b.paint_ms)],
      ["main thread's tasks until then (ms)", String(g.main_thread_tasks_ms), String(b.main_thread_tasks_ms)],
      ['sampled (not idle) until then (ms)', String(g.sampled_ms), String(b.sampled_ms)],
    ]),
    '',
    'Per step (the sampled time of the code each step runs; a builtin counts for its caller):',
    '',
  );
  const extra = (/** @type {string} */ step) => (g.steps_ms[step] ?? 0) - (b.steps_ms[step] ?? 0);
  // the work Gatehouse does beyond the baseline's first
  const steps = [...new Set([...Object.keys(g.steps_ms), ...Object.keys(b.steps_ms)])]
    .filter((step) => (g.steps_ms[step] ?? 0) > 0 || (b.steps_ms[step] ?? 0) > 0)
    .sort((x, y) => extra(y) - extra(x));
  out.push(
    markdown([
      ['step', 'Gatehouse ms', 'baseline ms', 'Gatehouse − baseline'],
      ...steps.map((step) => {
        const [gm, bm] = [g.steps_ms[step] ?? 0, b.steps_ms[step] ?? 0];
        return [step, String(gm), String(bm), `${gm - bm > 0 ? '+' : ''}${gm - bm}`];
      }),
    ]),
  );
  /** @param {Record<string, number>} values @param {number} n */
  const top = (values, n) =>
    Object.entries(values)
      .sort((x, y) => y[1] - x[1])
      .slice(0, n);
  // what Gatehouse spends beyond the baseline, by file: the steps it spends 5 ms or more on beyond the baseline's
  out.push('', "Gatehouse's steps beyond the baseline's (≥ 5 ms more), their files (ms):", '');
  /** @type {string[][]} */
  const byFile = [['step', 'file', 'Gatehouse ms']];
  for (const step of steps.filter((name) => extra(name) >= 5)) {
    const files = Object.entries(g.sources_ms)
      .filter(([source, ms]) => groupOf(source) === step && ms > 0)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 6);
    for (const [source, ms] of files) byFile.push([step, source, String(ms)]);
  }
  out.push(markdown(byFile));
  for (const [label, s] of /** @type {const} */ ([
    ['Gatehouse', g],
    ['baseline', b],
  ])) {
    out.push('', `${label}: per chunk, compile + evaluation (ms)`, '');
    out.push(markdown([['script', 'ms'], ...top(s.chunks_ms, 14).map(([name, ms]) => [name, String(ms)])]));
    out.push('', `${label}: the sources with the most sampled time (ms)`, '');
    out.push(markdown([['source', 'ms'], ...top(s.sources_ms, 20).map(([name, ms]) => [name, String(ms)])]));
  }
  console.log(out.join('\n'));
  writeFileSync(args.out, `${JSON.stringify({ date: new Date().toISOString(), cpu_rate: CPU_RATE, loads: LOADS, ...summary }, null, 2)}\n`);
  process.stderr.write(`[cpu-timeline] wrote ${args.out}\n`);
}

main().catch((/** @type {unknown} */ error) => {
  console.error(error instanceof Error ? (error.stack ?? error) : error);
  process.exit(1);
});
