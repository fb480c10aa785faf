// What signed-in browsers cost the identity provider: provider requests per hour, by endpoint, of
// Gatehouse and of the baseline (bench/baseline: plain keycloak-js, check-sso, its frame on), both against a real
// Keycloak 26.7 (tooling/testkit's runner) in the same run; and Keycloak's own CPU per user-info and per refresh
// grant under a bounded load generator on loopback (Debian's `wrk`). Method and figures: bench/README.md.

import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './browser.mjs';
import { BENCH_REALM, startBenchKeycloak } from './keycloak.mjs';
import { BASELINE, signIn } from './measure.mjs';
import { round } from './stats.mjs';
import { ORIGINS, benchRealm, startTopology } from './topology.mjs';

/** @typedef {import('./browser.mjs').Browser} Browser */
/** @typedef {import('./browser.mjs').Page} Page */
/** @typedef {import('./browser.mjs').StorageState} StorageState */
/** @typedef {import('playwright').BrowserContext} BrowserContext */

/** The scenarios, each one browser (context) with a signed-in tab on /profile. */
export const SCENARIOS = /** @type {const} */ (['untouched', 'active', 'hidden', 'three_tabs']);
/** @typedef {typeof SCENARIOS[number]} Scenario */

/** The keys this module adds to results.json (with the baseline's and the ratio). */
export const PROVIDER_COST_KEYS = /** @type {const} */ ([
  'provider_requests_per_hour_untouched',
  'provider_requests_per_hour_active',
  'provider_requests_per_hour_hidden',
  'provider_requests_per_hour_three_tabs',
  'provider_requests_opening_tab',
  'provider_requests_opening_second_tab',
  'keycloak_cpu_ms_per_1000_userinfo',
  'keycloak_cpu_ms_per_1000_refresh',
  'keycloak_requests_per_s_userinfo',
  'keycloak_requests_per_s_refresh',
  'session_events_requests_per_browser_hour',
]);

const REALM = BENCH_REALM;
const CLIENT_ID = 'gatehouse-shell';
const PROFILE_HEADING = '[elementtiming="profile-heading"]';
/** A visitor's input every this many ms in the `active` scenario. */
const INPUT_EVERY_MS = 10_000;
/** The scenarios' browsers start this far apart. */
const STAGGER_MS = 3_000;
/** After a tab's heading painted, its opening requests are those of the next this many ms. */
const SETTLE_MS = 5_000;
/** The tag at the end of each context's user agent, which Keycloak's access log records. */
const UA_TAG = 'gatehouse-bench/';

/** A provider request seen by the browser: ms since the scenario started, method, endpoint. */
/** @typedef {{ at: number, method: string, endpoint: string }} Seen */

/**
 * The endpoint of a provider URL, short: `userinfo`, `token (refresh_token)`, `login-status-iframe.html/init`, ….
 *
 * @param {string} url @param {string} method @param {string | null} body
 */
export function endpointOf(url, method, body) {
  const { pathname } = new URL(url);
  let endpoint = pathname.replace(`/realms/${REALM}/`, '').replace('protocol/openid-connect/', '');
  if (endpoint.startsWith('/resources/')) endpoint = 'resources (login page assets)';
  if (endpoint === 'token' && body) endpoint = `token (${new URLSearchParams(body).get('grant_type') ?? '?'})`;
  return method === 'OPTIONS' ? `preflight ${endpoint}` : endpoint;
}

/** @param {Seen[]} seen @returns {Record<string, number>} */
function byEndpoint(seen) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const { endpoint } of seen) counts[endpoint] = (counts[endpoint] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * One scenario of one setup in its own browser context: opens its tab(s), then records the provider requests of
 * `windowMs` (visitor input every 10 s in `active`; every tab reports itself hidden in `hidden`).
 *
 * @param {Browser} browser @param {StorageState} session @param {string} shell the setup's shell origin
 * @param {Scenario} scenario @param {string} tag @param {number} windowMs
 */
async function runScenario(browser, session, shell, scenario, tag, windowMs) {
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36 ${UA_TAG}${tag}`;
  const context = await browser.newContext({ storageState: session, userAgent });
  if (scenario === 'hidden') {
    // Playwright has no hidden tab; the page reads the Page Visibility API, so it is answered as a hidden tab would
    await context.addInitScript(() => {
      Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'hidden', configurable: true });
      Object.defineProperty(Document.prototype, 'hidden', { get: () => true, configurable: true });
    });
  }
  const started = Date.now();
  /** @type {Seen[]} */
  const seen = [];
  // the session-events service's requests (Gatehouse's stream and its reconnects): ms since the start, and whether
  // a CORS preflight (which Playwright does not report: the DevTools protocol of each page does)
  /** @type {Array<{ at: number, preflight: boolean }>} */
  const events = [];
  context.on('request', (request) => {
    if (request.url().startsWith(`${ORIGINS.sessionEvents}/`)) events.push({ at: Date.now() - started, preflight: false });
    if (!request.url().startsWith(ORIGINS.identityProvider)) return;
    seen.push({
      at: Date.now() - started,
      method: request.method(),
      endpoint: endpointOf(request.url(), request.method(), request.postData()),
    });
  });
  /** @type {Page[]} */
  const pages = [];
  /** @type {string[]} */
  const stalls = [];
  /** @type {number[]} */
  const openedAt = [];
  for (let tab = 0; tab < (scenario === 'three_tabs' ? 3 : 1); tab++) {
    openedAt.push(Date.now() - started);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', (event) => {
      if (
        event.request.url.startsWith(`${ORIGINS.sessionEvents}/`) &&
        (event.request.method === 'OPTIONS' || event.initiator.type === 'preflight')
      )
        events.push({ at: Date.now() - started, preflight: true });
    });
    /** @type {string[]} */
    const problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text().slice(0, 300));
    });
    page.on('pageerror', (error) => problems.push(String(error).slice(0, 300)));
    await page.goto(`${shell}/profile`);
    // a tab whose heading does not show is reloaded once, as a visitor would, and the stall is reported
    for (let attempt = 1; ; attempt++) {
      const shown = await page
        .locator(PROFILE_HEADING)
        .waitFor({ timeout: 60_000 })
        .then(() => true)
        .catch(() => false);
      if (shown) break;
      const text = await page
        .locator('body')
        .innerText()
        .catch(() => '');
      const stall = `${tag}, tab ${tab + 1}: the profile heading did not show within 60 s (${page.url()}); the page says: ${text.slice(0, 400)}; console: ${problems.join(' | ')}`;
      if (attempt > 1) throw new Error(`bench: ${stall}`);
      stalls.push(stall);
      await page.reload();
    }
    await page.waitForTimeout(SETTLE_MS);
    pages.push(page);
  }
  const windowStart = Date.now() - started;
  const opening = openedAt.map((from, i) => seen.filter((s) => s.at >= from && s.at < (openedAt[i + 1] ?? windowStart)));
  const end = Date.now() + windowMs;
  while (Date.now() < end) {
    const wait = Math.min(INPUT_EVERY_MS, end - Date.now());
    await pages[0]?.waitForTimeout(wait);
    if (scenario === 'active' && Date.now() < end) await pages[0]?.keyboard.press('Shift');
  }
  const windowEnd = Date.now() - started;
  const inWindow = seen.filter((s) => s.at >= windowStart && s.at < windowEnd);
  const eventsInWindow = events.filter((e) => e.at >= windowStart && e.at < windowEnd);
  const signedIn = await pages[0]?.locator(PROFILE_HEADING).isVisible();
  await context.close();
  return {
    tag,
    startedAt: started,
    windowStart: started + windowStart,
    windowEnd: started + windowEnd,
    signedInAtEnd: signedIn === true,
    stalls,
    opening: opening.map((requests, i) => ({
      from: started + /** @type {number} */ (openedAt[i]),
      to: started + (openedAt[i + 1] ?? windowStart),
      requests: requests.length,
      by_endpoint: byEndpoint(requests),
    })),
    window: { requests: inWindow.length, by_endpoint: byEndpoint(inWindow) },
    sessionEvents: {
      opening: events.filter((e) => e.at < windowStart).length,
      window: eventsInWindow.length,
      window_preflights: eventsInWindow.filter((e) => e.preflight).length,
    },
  };
}

/**
 * Keycloak's access log lines (the pattern set in startBenchKeycloak: `%t "%r" %s "%{i,User-Agent}"`), each with
 * its time (s resolution), method, path and the scenario tag of its user agent.
 *
 * @param {string} logFile
 */
function accessLog(logFile) {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const line =
    /\[(\d{2})\/(\w{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-]\d{4})\] "(\w+) (\S+) [^"]*" (\d{3}) "[^"]*gatehouse-bench\/(\S+?)"/;
  /** @type {Array<{ at: number, method: string, path: string, tag: string }>} */
  const entries = [];
  for (const text of readFileSync(logFile, 'utf8').split('\n')) {
    const m = line.exec(text);
    if (!m) continue;
    const [, day, month, year, hh, mm, ss, zone, method, path, , tag] = /** @type {string[]} */ (m);
    const iso = `${year}-${String(months.indexOf(/** @type {string} */ (month)) + 1).padStart(2, '0')}-${day}T${hh}:${mm}:${ss}${zone?.slice(0, 3)}:${zone?.slice(3)}`;
    entries.push({
      at: Date.parse(iso),
      method: /** @type {string} */ (method),
      path: /** @type {string} */ (path),
      tag: /** @type {string} */ (tag),
    });
  }
  return entries;
}

/** startBenchKeycloak with the bench's realm written for it. @param {string} repoRoot @param {string} workDir @param {(message: string) => void} log */
function startOwnKeycloak(repoRoot, workDir, log) {
  const realmFile = join(workDir, 'keycloak-realm.json');
  writeFileSync(realmFile, JSON.stringify(benchRealm(repoRoot), null, 2));
  return startBenchKeycloak({ workDir, realmFile, log });
}

/** The JVM of the Keycloak whose home is `home` (its command line names the home). @param {string} home */
function keycloakPid(home) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline[0]?.endsWith('/java') && cmdline.some((arg) => arg.includes(home))) return Number(entry);
    } catch {
      // a process that ended meanwhile
    }
  }
  throw new Error(`bench: no JVM running Keycloak from ${home} in /proc`);
}

/** CPU ms (user + system, every thread) a process has used so far, from /proc/<pid>/stat. @param {number} pid */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[11], fields[12]: utime, stime (fields 14, 15 of proc(5), counted from the state field as 0)
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100; // USER_HZ: 100 on Linux
}

/**
 * Runs `wrk` with a Lua script (the token stays in a 0600 file, not on a command line) for `seconds`; resolves with
 * its requests, requests/s, non-2xx answers and socket errors.
 *
 * @param {string} url @param {string} script @param {number} seconds
 */
function runWrk(url, script, seconds) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('wrk', ['-t1', '-c4', `-d${seconds}s`, '-s', script, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', (error) =>
      reject(
        new Error(`bench: \`wrk\` did not start (${error.message}). Install it outside the network namespace: apt-get install -y wrk`),
      ),
    );
    child.on('exit', (code) => {
      const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
      const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      if (code !== 0 || !Number.isFinite(requests)) return reject(new Error(`bench: wrk failed (exit ${code}):\n${out}`));
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
      const socketErrors = /Socket errors: (.*)/.exec(out)?.[1] ?? null;
      resolvePromise({ requests, perSecond, non2xx, socketErrors });
    });
  });
}

/**
 * Keycloak's CPU per request of one kind: a warm-up of `warmSeconds`, then `seconds` under `wrk -t1 -c4` (bounded:
 * four connections on loopback), CPU from the JVM's /proc/<pid>/stat before and after.
 *
 * @param {number} pid @param {string} url @param {string} lua @param {string} workDir @param {{ warmSeconds: number, seconds: number }} timing
 */
async function cpuPerRequest(pid, url, lua, workDir, { warmSeconds, seconds }) {
  const script = join(workDir, 'wrk-script.lua');
  writeFileSync(script, lua, { mode: 0o600 });
  try {
    await runWrk(url, script, warmSeconds);
    const before = cpuMs(pid);
    const run = await runWrk(url, script, seconds);
    const used = cpuMs(pid) - before;
    if (run.non2xx > 0 || run.socketErrors)
      throw new Error(`bench: ${url} answered ${run.non2xx} non-2xx, socket errors ${run.socketErrors}`);
    return {
      cpu_ms_per_1000: round((used / run.requests) * 1000, 0),
      requests_per_s: round(run.perSecond, 0),
      requests: run.requests,
      cpu_ms: used,
    };
  } finally {
    rmSync(script, { force: true });
  }
}

/**
 * A fresh token response of the SPA client for alice (the baseline's check-sso in a new context, its token
 * answer read from the browser), kept in memory only.
 *
 * @param {Browser} browser @param {StorageState} session
 * @returns {Promise<{ access_token: string, refresh_token: string }>}
 */
async function freshTokens(browser, session) {
  const context = await browser.newContext({ storageState: session });
  try {
    const page = await context.newPage();
    const answer = page.waitForResponse((response) => response.url().endsWith('/protocol/openid-connect/token') && response.ok());
    await page.goto(`${BASELINE.shell}/profile`);
    return await (await answer).json();
  } finally {
    await context.close();
  }
}

/** @param {string} value */
const lua = (value) => JSON.stringify(value);

/**
 * The provider-cost keys of Gatehouse and of the baseline, in one run against Keycloak 26.7.
 *
 * @param {object} options
 * @param {string} options.repoRoot
 * @param {string} options.workDir
 * @param {Readonly<Record<string, string>>} options.dists the builds (Gatehouse's and the baseline's)
 * @param {(message: string) => void} options.log
 * @param {number} options.windowSeconds how long each scenario's requests are counted (all scenarios side by side)
 * @param {boolean} [options.keycloakCpu] also measure Keycloak's CPU per user-info and per refresh (default true)
 * @param {import('./keycloak.mjs').Keycloak | null} [options.keycloak] a running startBenchKeycloak (the Keycloak stage's),
 *   left running; without it this starts one and stops it at the end
 */
export async function measureProviderCost({ repoRoot, workDir, dists, log, windowSeconds, keycloakCpu = true, keycloak: running = null }) {
  const keycloak = running ?? (await startOwnKeycloak(repoRoot, workDir, log));
  /** @type {Awaited<ReturnType<typeof startTopology>> | null} */
  let topology = null;
  /** @type {Browser | null} */
  let browser = null;
  try {
    topology = await startTopology({ repoRoot, workDir, dirs: dists, log, devIdp: false });
    browser = await launchBrowser();
    const session = await signIn(browser);
    const setups = /** @type {const} */ ([
      ['gatehouse', ORIGINS.shell],
      ['baseline', BASELINE.shell],
    ]);
    log(`provider cost: ${SCENARIOS.length * setups.length} browsers side by side against Keycloak, ${windowSeconds} s window`);
    const b = browser;
    const runs = await Promise.all(
      setups.flatMap(([setup, shell]) =>
        SCENARIOS.map(async (scenario, i) => ({
          // staggered starts: eight cold sign-ins at once kept a loaded Keycloak past auth-lib's 10 s timeout
          ...(await new Promise((resolve) =>
            setTimeout(() => resolve(undefined), (i * setups.length + (setup === 'baseline' ? 1 : 0)) * STAGGER_MS),
          ).then(() => ({}))),
          setup,
          scenario,
          ...(await runScenario(b, session, shell, scenario, `${setup}-${scenario}`, windowSeconds * 1000)),
        })),
      ),
    );
    // the check against Keycloak's own access log: every request it served with a scenario's tag, in its window
    const logged = accessLog(keycloak.logFile);
    const perHour = 3600 / windowSeconds;
    /** @type {{ gatehouse: Record<string, number>, baseline: Record<string, number> }} */
    const figures = { gatehouse: {}, baseline: {} };
    /** @type {Record<string, unknown>} */
    const details = { window_s: windowSeconds, input_every_s: INPUT_EVERY_MS / 1000, scenarios: {} };
    for (const run of runs) {
      const mine = logged.filter((entry) => entry.tag === run.tag);
      // the log has whole seconds: a request is in a stretch when its second overlaps it
      /** @param {number} from @param {number} to */
      const between = (from, to) => mine.filter((entry) => entry.at >= Math.floor(from / 1000) * 1000 && entry.at < to);
      /** @param {number} from @param {number} to */
      const preflightsBetween = (from, to) => between(from, to).filter((entry) => entry.method === 'OPTIONS').length;
      const inWindow = between(run.windowStart, run.windowEnd);
      const preflights = preflightsBetween(run.windowStart, run.windowEnd);
      const total = run.window.requests + preflights;
      // opening a tab: the browser's requests and the preflights Keycloak answered meanwhile
      const opening = run.opening.map((o) => ({
        ...o,
        preflights: preflightsBetween(o.from, o.to),
        total: o.requests + preflightsBetween(o.from, o.to),
      }));
      const target = figures[run.setup];
      target[`provider_requests_per_hour_${run.scenario}`] = round(total * perHour, 0);
      if (run.scenario === 'untouched') target.provider_requests_opening_tab = opening[0]?.total ?? 0;
      if (run.scenario === 'three_tabs') target.provider_requests_opening_second_tab = opening[1]?.total ?? 0;
      // one browser's hour of session-events: the requests that opened its stream with the tab (once), plus those
      // of the window (reconnects and their preflights) extrapolated to an hour
      if (run.scenario === 'untouched' && run.setup === 'gatehouse')
        target.session_events_requests_per_browser_hour = round(run.sessionEvents.opening + run.sessionEvents.window * perHour, 0);
      /** @type {Record<string, unknown>} */ (details.scenarios)[run.tag] = {
        window: run.window,
        preflights_in_window: preflights,
        per_hour: round(total * perHour, 0),
        access_log: { in_window: inWindow.length, in_window_without_preflights: inWindow.length - preflights, whole_scenario: mine.length },
        opening,
        signed_in_at_end: run.signedInAtEnd,
        session_events: run.sessionEvents,
        stalls: run.stalls,
      };
    }
    if (keycloakCpu) {
      const pid = keycloakPid(keycloak.home);
      const realmUrl = keycloak.realmUrl(REALM);
      const tokens = await freshTokens(browser, session);
      // the JVM has just served a few browsers: warm it up on each request kind before measuring
      const timing = { warmSeconds: 20, seconds: 20 };
      const userinfo = await cpuPerRequest(
        pid,
        `${realmUrl}/protocol/openid-connect/userinfo`,
        `wrk.headers["Authorization"] = "Bearer " .. ${lua(tokens.access_token)}\n`,
        workDir,
        timing,
      );
      const body = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: CLIENT_ID,
      }).toString();
      const refresh = await cpuPerRequest(
        pid,
        `${realmUrl}/protocol/openid-connect/token`,
        `wrk.method = "POST"\nwrk.body = ${lua(body)}\nwrk.headers["Content-Type"] = "application/x-www-form-urlencoded"\n`,
        workDir,
        timing,
      );
      figures.gatehouse.keycloak_cpu_ms_per_1000_userinfo = userinfo.cpu_ms_per_1000;
      figures.gatehouse.keycloak_cpu_ms_per_1000_refresh = refresh.cpu_ms_per_1000;
      figures.gatehouse.keycloak_requests_per_s_userinfo = userinfo.requests_per_s;
      figures.gatehouse.keycloak_requests_per_s_refresh = refresh.requests_per_s;
      details.keycloak_load = { generator: 'wrk -t1 -c4, 20 s warm-up, 20 s measured, loopback', userinfo, refresh };
    }
    return { gatehouse: figures.gatehouse, baseline: figures.baseline, details };
  } finally {
    await browser?.close();
    await topology?.stop();
    if (!running) await keycloak.stop();
  }
}

/**
 * The provider-cost table (Gatehouse, baseline, ratio) of measureProviderCost's result.
 *
 * @param {{ gatehouse: Record<string, number>, baseline: Record<string, number>, details: Record<string, unknown> }} cost
 */
export function providerCostTable(cost) {
  const rows = PROVIDER_COST_KEYS.filter((key) => key in cost.gatehouse).map((key) => {
    const value = /** @type {number} */ (cost.gatehouse[key]);
    const base = cost.baseline[key];
    const ratio = typeof base === 'number' && base > 0 ? round(value / base, 2) : '';
    return `| \`${key}\` | ${value} | ${base ?? ''} | ${ratio} |`;
  });
  return [
    `Provider cost against Keycloak 26.7 (${cost.details.window_s} s window per scenario, extrapolated to an hour):`,
    '| key | Gatehouse | baseline | ÷ baseline |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * The ratio (Gatehouse ÷ baseline) of every key both have. @param {Record<string, number>} gatehouse @param {Record<string, number>} baseline
 */
export function providerCostRatio(gatehouse, baseline) {
  /** @type {Record<string, number>} */
  const ratio = {};
  for (const [key, value] of Object.entries(gatehouse)) {
    const base = baseline[key];
    if (typeof base === 'number' && base > 0) ratio[key] = round(value / base, 2);
  }
  return ratio;
}
