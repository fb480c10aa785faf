// The browser measurements of the benchmark. Each function does one thing and returns plain data;
// run.mjs decides how many times and in which order.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { coldLoad, encodedSize } from './browser.mjs';
import { ORIGINS } from './topology.mjs';

/** @typedef {import('./browser.mjs').Browser} Browser */
/** @typedef {import('./browser.mjs').ColdLoad} ColdLoad */
/** @typedef {import('./browser.mjs').Page} Page */
/** @typedef {import('./browser.mjs').StorageState} StorageState */
/** @typedef {import('../../deploy/nginx/render.mjs').ShellConfig} ShellConfig */

/**
 * The origins one setup is measured on: Gatehouse's, or the baseline's (bench/baseline) under the same names.
 *
 * @typedef {{ shell: string, profile: string, expose: string, api: string }} Origins
 */

/**
 * A file counted towards a figure, with its on-the-wire bytes.
 *
 * @typedef {{ file: string, bytes: number }} CountedFile
 */

/**
 * The part of auth-lib's page registry (auth-lib/src/session/registry.ts, on `globalThis` under
 * `Symbol.for('gatehouse.auth-lib.session')`) that the page functions below call.
 *
 * @typedef {{ session: { getSnapshot(): { status: string, tokenExpiresAt: number | null }, getToken(): Promise<string> } | null }} PageRegistry
 */

const HOME = 'home-heading';
const PROFILE = 'profile-heading';
const TOKEN_PATH = '/protocol/openid-connect/token';

/**
 * Signs alice in once; returns the identity provider's cookies (the "existing sign-in session").
 *
 * @param {Browser} browser
 * @param {string} [user]
 * @returns {Promise<StorageState>}
 */
export async function signIn(browser, user = 'alice') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${ORIGINS.shell}/profile`);
  await page.waitForURL((url) => url.origin === ORIGINS.identityProvider, { timeout: 30_000 });
  await fillLoginForm(page, user);
  await page.waitForURL((url) => url.origin === ORIGINS.shell, { timeout: 30_000 });
  await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor({ timeout: 30_000 });
  const { cookies } = await context.storageState();
  await context.close();
  return { cookies: cookies.filter((cookie) => cookie.domain.replace(/^\./, '') === 'localhost'), origins: [] };
}

/**
 * Cold load of Home, signed out: ms from navigation start to Home's heading painted.
 *
 * @param {Browser} browser
 * @param {{ keep?: boolean, origins?: Origins, cpuRate?: number }} [options] `keep`: leave its context open; `cpuRate`: the
 *   profile's CPU slow-down (bench/lib/profiles.mjs)
 * @returns {Promise<ColdLoad>}
 */
export async function publicLoad(browser, { keep = false, origins = GATEHOUSE, cpuRate = 1 } = {}) {
  const load = await coldLoad(browser, `${origins.shell}/`, { elementId: HOME, cpuRate });
  if (!keep) await load.context.close();
  return load;
}

/**
 * `loads` rounds of the four cold loads in one device profile, the baseline's and Gatehouse's alternating so that a
 * drift of the machine weighs on both alike: the baseline's Home and /profile, then Gatehouse's; their paint times.
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {number} loads
 * @param {number} cpuRate the profile's CPU slow-down (bench/lib/profiles.mjs)
 * @returns {Promise<Record<'gatehouse' | 'baseline', { pub: number[], rem: number[] }>>}
 */
export async function alternatingLoads(browser, session, loads, cpuRate) {
  /** @type {Record<'gatehouse' | 'baseline', { pub: number[], rem: number[] }>} */
  const times = { gatehouse: { pub: [], rem: [] }, baseline: { pub: [], rem: [] } };
  for (let i = 0; i < loads; i++) {
    times.baseline.pub.push((await publicLoad(browser, { origins: BASELINE, cpuRate })).paint);
    times.baseline.rem.push((await remoteLoad(browser, session, { origins: BASELINE, cpuRate })).paint);
    times.gatehouse.pub.push((await publicLoad(browser, { cpuRate })).paint);
    times.gatehouse.rem.push((await remoteLoad(browser, session, { cpuRate })).paint);
  }
  return times;
}

/**
 * Cold load of /profile with a session at the provider: ms to the remote's heading painted.
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {{ keep?: boolean, origins?: Origins, cpuRate?: number }} [options] `keep`: leave its context open; `cpuRate`: the
 *   profile's CPU slow-down (bench/lib/profiles.mjs)
 * @returns {Promise<ColdLoad & { verify: number | undefined }>} `verify`: Gatehouse's release check (releaseVerifyMs), undefined for the baseline
 */
export async function remoteLoad(browser, session, { keep = false, origins = GATEHOUSE, cpuRate = 1 } = {}) {
  const load = await coldLoad(browser, `${origins.shell}/profile`, { elementId: PROFILE, storageState: session, cpuRate });
  const verify = origins === GATEHOUSE ? await releaseVerifyMs(load) : undefined;
  if (!keep) await load.context.close();
  return Object.assign(load, { verify });
}

/**
 * What verifying the profile remote's signed release added after its manifest arrived (ms): the shell's User Timing
 * measure `gatehouse:release-verified profile` (shell/src/registry/ReleaseGate.ts; decisions/0117). The bench's
 * config pins every remote's key, so a load without it is an error, never a 0.
 *
 * @param {ColdLoad} load
 * @returns {Promise<number>}
 */
async function releaseVerifyMs(load) {
  const durations = await load.page.evaluate(() =>
    performance.getEntriesByName('gatehouse:release-verified profile', 'measure').map((entry) => entry.duration),
  );
  const [duration] = durations;
  if (durations.length !== 1 || duration === undefined || !Number.isFinite(duration))
    throw new Error(`bench: the profile remote's release verification was measured ${durations.length} times on /profile (expected once)`);
  return duration;
}

/**
 * Every response of a load once the network is idle; `bytes()` reads a body's size only when it is counted.
 *
 * @param {ColdLoad} load
 */
async function settledResponses(load) {
  await load.quiet();
  return Promise.all(
    load.responses.map(async (response) => ({
      url: response.url(),
      type: response.request().resourceType(),
      status: response.status(),
      encoding: (await response.allHeaders())['content-encoding'] ?? 'identity',
      // read only for the files that are counted (redirects and empty answers have no body to size)
      bytes: () => encodedSize(response),
    })),
  );
}

/** Gatehouse's origins, or the baseline's (bench/baseline) under the same names. @type {Origins} */
export const BASELINE = { shell: ORIGINS.baselineHost, profile: ORIGINS.baselineRemote, expose: './Profile', api: ORIGINS.baselineApi };
/** @type {Origins} */
const GATEHOUSE = { shell: ORIGINS.shell, profile: ORIGINS.profile, expose: './App', api: ORIGINS.demoApi };

const originOf = (/** @type {string} */ url) => new URL(url).origin;
const pathOf = (/** @type {string} */ url) => new URL(url).pathname;

/**
 * The JavaScript of the shell's origin on a cold load of Home: the files and their gzip bytes.
 *
 * @param {ColdLoad} load
 * @param {Origins} [origins]
 * @returns {Promise<{ files: Array<CountedFile & { encoding: string }>, bytes: number }>}
 */
export async function shellInitialJs(load, origins = GATEHOUSE) {
  const responses = await settledResponses(load);
  const scripts = responses.filter((r) => r.type === 'script' && originOf(r.url) === origins.shell && r.status === 200);
  const files = await Promise.all(scripts.map(async ({ url, bytes, encoding }) => ({ file: pathOf(url), bytes: await bytes(), encoding })));
  if (files.length === 0) throw new Error(`bench: no script from ${origins.shell} on Home`);
  return { files, bytes: files.reduce((sum, f) => sum + f.bytes, 0) };
}

/**
 * What the profile remote adds to a page beyond its own app code: its manifest, its remote entry
 * (container + the federation runtime it carries) and any other file that is not one of the
 * `./App` expose's own chunks (listed in its mf-manifest.json), plus any shell file that Home did
 * not already need.
 *
 * @param {ColdLoad} load a cold load of /profile
 * @param {readonly CountedFile[] | undefined} publicShellFiles the shell's scripts on Home (shellInitialJs, measured first)
 * @param {string} profileDist the profile remote's build (its mf-manifest.json)
 * @param {Origins} [origins]
 * @returns {Promise<{ overhead: CountedFile[], appCode: CountedFile[], bytes: number, appBytes: number }>}
 */
export async function remoteOverhead(load, publicShellFiles, profileDist, origins = GATEHOUSE) {
  const responses = await settledResponses(load);
  /** @type {{ exposes: Array<{ path: string, assets: { js: { sync: string[], async: string[] } } }> }} */
  const manifest = JSON.parse(readFileSync(join(profileDist, 'mf-manifest.json'), 'utf8'));
  const expose = manifest.exposes.find((e) => e.path === origins.expose);
  if (!expose) throw new Error(`bench: ${profileDist}/mf-manifest.json has no expose ${origins.expose}`);
  const ownCode = new Set([...expose.assets.js.sync, ...expose.assets.js.async].map((file) => `/${file}`));
  if (!publicShellFiles) throw new Error("bench: remoteOverhead needs the shell's scripts on Home (shellInitialJs) first");
  const alreadyLoaded = new Set(publicShellFiles.map((f) => f.file));
  /** @type {CountedFile[]} */
  const overhead = [];
  /** @type {CountedFile[]} */
  const appCode = [];
  for (const r of responses) {
    if (r.status !== 200) continue;
    const origin = originOf(r.url);
    const file = pathOf(r.url);
    if (origin === origins.profile && (r.type === 'script' || r.type === 'fetch' || r.type === 'xhr')) {
      (ownCode.has(file) ? appCode : overhead).push({ file: `profile:${file}`, bytes: await r.bytes() });
    } else if (origin === origins.shell && r.type === 'script' && !alreadyLoaded.has(file) && file !== '/silent-check-sso.js') {
      // (silent-check-sso.js belongs to the sign-in check, not to the remote)
      overhead.push({ file: `shell:${file}`, bytes: await r.bytes() });
    }
  }
  const sum = (/** @type {CountedFile[]} */ list) => list.reduce((total, f) => total + f.bytes, 0);
  return { overhead, appCode, bytes: sum(overhead), appBytes: sum(appCode) };
}

/**
 * Which node_modules files a built script carries, from its source map next to it in the build.
 *
 * @param {Readonly<Record<string, string>>} dists each app's build folder, by app name
 * @param {string} url
 * @returns {string[] | null} null for a script without a source map
 */
function sourcesOf(dists, url) {
  const origin = originOf(url);
  /** @type {Readonly<Record<string, string>>} */
  const origins = ORIGINS;
  const dist = Object.entries(dists).find(([name]) => origins[name] === origin)?.[1];
  if (dist === undefined) return [];
  // next to the file, or in dist-sourcemaps/ beside dist/ (hidden source maps that are never deployed)
  const candidates = [join(dist, `${pathOf(url)}.map`), join(dist, '..', 'dist-sourcemaps', `${pathOf(url)}.map`)];
  const mapFile = candidates.find((file) => existsSync(file));
  if (!mapFile) return null; // not webpack output (a public file such as silent-check-sso.js)
  /** @type {{ sources: string[] }} */
  const sourceMap = JSON.parse(readFileSync(mapFile, 'utf8'));
  return sourceMap.sources;
}

/**
 * From the Profile a page shows, opens Admin and Reports through the main navigation (as alice, who may open both).
 *
 * @param {Page} page
 */
async function visitAdminAndReports(page) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const title of ['Admin', 'Reports']) {
    await nav.getByRole('link', { name: title }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 30_000 });
  }
}

/**
 * Opens Profile, Admin and Reports one after the other in one page (as alice, who may open all),
 * then counts the loaded scripts that carry React's, React DOM's and keycloak-js's code, and the
 * React renderers that registered with the DevTools hook.
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {Readonly<Record<string, string>>} dists each app's build folder, by app name
 */
export async function copiesOnPage(browser, session, dists) {
  const load = await coldLoad(browser, `${ORIGINS.shell}/profile`, {
    elementId: PROFILE,
    storageState: session,
    beforeGoto: (page) =>
      page.addInitScript(() => {
        /** @type {Map<number, unknown>} */
        const renderers = new Map();
        /** @type {Window & { __REACT_DEVTOOLS_GLOBAL_HOOK__?: object }} */ (window).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
          renderers,
          supportsFiber: true,
          isDisabled: false,
          inject: (/** @type {unknown} */ renderer) => {
            renderers.set(renderers.size + 1, renderer);
            return renderers.size;
          },
          checkDCE() {},
          onCommitFiberRoot() {},
          onCommitFiberUnmount() {},
          onPostCommitFiberRoot() {},
          onScheduleFiberRoot() {},
        };
      }),
  });
  try {
    await visitAdminAndReports(load.page);
    await load.quiet();
    const scripts = load.responses.filter((r) => r.request().resourceType() === 'script' && r.status() === 200).map((r) => r.url());
    const sources = new Map(scripts.map((url) => [url, sourcesOf(dists, url)]));
    const carrying = (/** @type {RegExp} */ pattern) =>
      scripts.filter((url) => (sources.get(url) ?? []).some((source) => pattern.test(source)));
    const renderers = await load.page.evaluate(() => {
      const hook = /** @type {Window & { __REACT_DEVTOOLS_GLOBAL_HOOK__?: { renderers: Map<number, unknown> } }} */ (window)
        .__REACT_DEVTOOLS_GLOBAL_HOOK__;
      if (!hook) throw new Error('bench: the page lost the DevTools hook the init script installed');
      return hook.renderers.size;
    });
    return {
      react: carrying(/node_modules\/react\/cjs\/react\.production\.js$/).length,
      reactDom: carrying(/node_modules\/react-dom\/cjs\/react-dom-client\.production\.js$/).length,
      keycloakJs: carrying(/node_modules\/keycloak-js\/lib\/keycloak\.js$/).length,
      reactRenderers: renderers,
      scripts: scripts.length,
      scriptsWithoutSourceMap: scripts.filter((url) => sources.get(url) === null).map((url) => url),
    };
  } finally {
    await load.context.close();
  }
}

/**
 * Sets the realm's access token lifespan through the admin REST API (Keycloak's PUT /admin/realms/{realm}).
 *
 * @param {string} idpUrl @param {string} realm @param {number} seconds
 */
export async function setAccessTokenLifespan(idpUrl, realm, seconds) {
  const admin = await signInAsAdmin(idpUrl);
  await admin.realms.update({ realm }, { accessTokenLifespan: seconds });
}

/**
 * With Profile, Admin and Reports visited and the access token about to expire (< 5 s left), 50
 * callers ask the page's session for a token at once; counts the token requests that reach the
 * provider. The callers use the page's one session, the one every remote's auth-lib hooks read.
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {{ idpUrl: string, realm: string, callers?: number }} options
 */
export async function concurrentTokens(browser, session, { idpUrl, realm, callers = 50 }) {
  await setAccessTokenLifespan(idpUrl, realm, 8);
  const load = await coldLoad(browser, `${ORIGINS.shell}/profile`, { elementId: PROFILE, storageState: session });
  try {
    await visitAdminAndReports(load.page);
    await load.page.waitForFunction(
      () => {
        const registry = /** @type {PageRegistry | undefined} */ (Reflect.get(globalThis, Symbol.for('gatehouse.auth-lib.session')));
        const snapshot = registry?.session?.getSnapshot();
        const left = snapshot?.tokenExpiresAt ? snapshot.tokenExpiresAt - Date.now() : Infinity;
        return left < 4000 && left > 1000;
      },
      undefined,
      { timeout: 20_000, polling: 50 },
    );
    /** @type {string[]} */
    const tokenPosts = [];
    load.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes(TOKEN_PATH)) tokenPosts.push(request.url());
    });
    const result = await load.page.evaluate(async (n) => {
      const registry = /** @type {PageRegistry | undefined} */ (Reflect.get(globalThis, Symbol.for('gatehouse.auth-lib.session')));
      const pageSession = registry?.session;
      if (!pageSession) throw new Error('bench: the page has no auth-lib session');
      const before = pageSession.getSnapshot().tokenExpiresAt;
      const tokens = await Promise.all(Array.from({ length: n }, () => pageSession.getToken()));
      return { distinct: new Set(tokens).size, refreshed: pageSession.getSnapshot().tokenExpiresAt !== before };
    }, callers);
    await load.page.waitForTimeout(300);
    return { requests: tokenPosts.length, ...result };
  } finally {
    await load.context.close();
    await setAccessTokenLifespan(idpUrl, realm, 300);
  }
}

/**
 * A config.json with `count` remotes: the real three, then generated ones that are never opened.
 *
 * @param {ShellConfig} config @param {number} count
 * @returns {ShellConfig}
 */
export function configWithRemotes(config, count) {
  const remotes = [...config.remotes];
  for (let i = remotes.length + 1; i <= count; i++) {
    remotes.push({
      name: `generated_${i}`,
      manifest: `https://remote-${i}.example.com/mf-manifest.json`,
      route: `/generated-${i}`,
      title: `Generated ${i}`,
    });
  }
  return { ...config, remotes };
}

/**
 * Cold load of Home with the given config.json served (intercepted), signed in at the provider as a user
 * who may open every remote of it (the generated ones need no role): first contentful paint, Home painted.
 *
 * @param {Browser} browser
 * @param {ShellConfig} configJson
 * @param {StorageState} session
 * @returns {Promise<{ fcp: number | null, paint: number }>}
 */
export async function startupWithConfig(browser, configJson, session) {
  const body = JSON.stringify(configJson);
  const load = await coldLoad(browser, `${ORIGINS.shell}/`, {
    elementId: HOME,
    storageState: session,
    beforeGoto: (page) =>
      page.route(`${ORIGINS.shell}/config.json`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', headers: { 'cache-control': 'no-cache' }, body }),
      ),
  });
  try {
    // signed in: the navigation lists every remote the user may open (all of them)
    const links = load.page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    await links.nth(configJson.remotes.length - 1).waitFor({ timeout: 30_000 });
    const listed = await links.count();
    if (listed < configJson.remotes.length)
      throw new Error(`bench: the navigation lists ${listed} of ${configJson.remotes.length} remotes`);
  } finally {
    await load.context.close();
  }
  return { fcp: load.fcp, paint: load.paint };
}

/**
 * How one tab's own call to its remote's API went (the profile remote's, on mount): the answer it shows and how the
 * token went with the request (`Authorization` scheme, a `DPoP` proof header or none).
 *
 * @typedef {{ answer: string, scheme: string | null, proof: boolean }} ApiCheck
 */

/**
 * Waits for the profile remote's own call to its API (made on mount: Gatehouse's ApiCard, the baseline's Profile) to
 * show its answer, and reads how the first request to the API carried the token.
 *
 * @param {Page} page
 * @param {import('playwright-core').Request[]} apiRequests the page's requests to the API so far
 * @returns {Promise<ApiCheck>}
 */
async function apiCheck(page, apiRequests) {
  const answer = page.getByTestId('api-answer');
  await answer.filter({ hasText: /Signed in as|Refused/ }).waitFor({ timeout: 30_000 });
  const text = ((await answer.textContent()) ?? '').trim();
  const first = apiRequests[0];
  const headers = first ? await first.allHeaders() : {};
  return { answer: text, scheme: headers['authorization']?.split(' ')[0] ?? null, proof: 'dpop' in headers };
}

/**
 * time_to_remote_visible_second_tab_ms: a browser already signed in, with /profile open in one tab,
 * opens /profile in a second tab (cache disabled, as every cold load here): ms to the remote's heading.
 * Returns the times of `loads` second tabs, each closed before the next one opens. Once its heading painted, each
 * second tab's own API call (its profile remote's, on mount: with Gatehouse a DPoP proof signed by the key the first
 * tab put in IndexedDB) must be answered; how it went is pushed to `apiChecks`.
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {number} loads
 * @param {Origins} [origins]
 * @param {ApiCheck[]} [apiChecks]
 * @param {number} [cpuRate] the profile's CPU slow-down (bench/lib/profiles.mjs), for the first tab and the second ones
 * @returns {Promise<number[]>}
 */
export async function secondTabLoads(browser, session, loads, origins = GATEHOUSE, apiChecks = [], cpuRate = 1) {
  const first = await coldLoad(browser, `${origins.shell}/profile`, { elementId: PROFILE, storageState: session, cpuRate });
  /** @type {number[]} */
  const times = [];
  try {
    for (let i = 0; i < loads; i++) {
      /** @type {import('playwright-core').Request[]} */
      const apiRequests = [];
      const load = await coldLoad(browser, `${origins.shell}/profile`, {
        elementId: PROFILE,
        context: first.context,
        cpuRate,
        beforeGoto: (page) =>
          page.on('request', (request) => {
            if (request.url().startsWith(`${origins.api}/`)) apiRequests.push(request);
          }),
      });
      times.push(load.paint);
      // after the paint: the wait is not in the figure
      apiChecks.push(await apiCheck(load.page, apiRequests));
      await load.page.close();
    }
  } finally {
    await first.context.close();
  }
  return times;
}

/**
 * api_call_ms, api_call_first_ms: what one call of a remote to its API costs the visitor once its token is warm.
 * A cold load of /profile with a session at the provider; once the profile remote's own call on mount has answered
 * (its token is then in the page: with Gatehouse the API token's downscoped refresh has run, with the first DPoP proof,
 * so the `dpop` chunk and the key from IndexedDB are loaded), the bench makes `calls` calls through the remote's own
 * caller, one after the other, each timed inside the page (`performance.now()`) from the call to the answer's body
 * read. The first one with the cache still disabled, so that it pays the CORS preflight (`Authorization`, and
 * Gatehouse's `DPoP`: one preflight either way) as a page's first call does; then the browser's cache is enabled again,
 * as a visitor's is, and it keeps the preflight's answer (`Access-Control-Max-Age`) for the other calls. Gatehouse: the profile remote's view of the session, `authFetch(api.url)` (its API token,
 * `Authorization: DPoP` and a fresh proof), found as the `session` of the `<AuthProvider>` around its ApiCard;
 * the baseline: its remote's `callApi()` (keycloak-js `updateToken(30)`, then `fetch` with `Authorization: Bearer`).
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {{ origins?: Origins, calls?: number }} [options]
 * @returns {Promise<{ times: number[], preflights: number[], requests: ApiCheck[], signMs: number | null }>} each call's
 *   ms; the CORS preflights to the API during each call; how each call carried its token; Gatehouse: one proof's
 *   signing in this page apart from a call (proofSignMs)
 */
export async function apiCalls(browser, session, { origins = GATEHOUSE, calls = 6 } = {}) {
  /** @type {import('playwright-core').Request[]} */
  const apiRequests = [];
  const load = await coldLoad(browser, `${origins.shell}/profile`, {
    elementId: PROFILE,
    storageState: session,
    beforeGoto: (page) =>
      page.on('request', (request) => {
        if (request.url().startsWith(`${origins.api}/`)) apiRequests.push(request);
      }),
  });
  try {
    const mounted = await apiCheck(load.page, apiRequests);
    if (!mounted.answer.startsWith('Signed in as'))
      throw new Error(`bench: the profile remote's API call on ${origins.shell}: ${mounted.answer}`);
    // CORS preflights, which Playwright does not report; the DevTools protocol names them (type Preflight)
    /** @type {number[]} */
    const preflightsAt = [];
    load.cdp.on('Network.requestWillBeSent', (event) => {
      if ((event.request.method === 'OPTIONS' || event.initiator.type === 'preflight') && event.request.url.startsWith(`${origins.api}/`))
        preflightsAt.push(performance.now());
    });
    const before = apiRequests.length;
    /** @type {number[]} */
    const ends = [];
    /** @type {number[]} */
    const times = [];
    for (let i = 0; i < calls; i++) {
      // the first call with the cache still disabled: it pays the CORS preflight, as a page's first call to the API
      // does (the one the remote made on mount was not kept: DevTools' disabled cache skips the preflight cache); then
      // the visitor's cache, which keeps the preflight's answer (the demo API's Access-Control-Max-Age: 600 s)
      if (i === 1) await load.cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
      const [ms] = await load.page.evaluate(timedApiCalls, { calls: 1, baselineCall: origins === BASELINE ? BASELINE_CALL : null });
      times.push(/** @type {number} */ (ms));
      ends.push(performance.now());
    }
    const preflights = ends.map((end, i) => preflightsAt.filter((at) => at <= end && (i === 0 || at > (ends[i - 1] ?? 0))).length);
    const requests = await Promise.all(
      apiRequests.slice(before).map(async (request) => {
        const headers = await request.allHeaders();
        return {
          answer: String((await request.response())?.status() ?? 'no answer'),
          scheme: headers['authorization']?.split(' ')[0] ?? null,
          proof: 'dpop' in headers,
        };
      }),
    );
    const signMs = origins === GATEHOUSE ? await load.page.evaluate(proofSignMs, 20) : null;
    return { times, preflights, requests, signMs };
  } finally {
    await load.context.close();
  }
}

/**
 * In the page: what signing one DPoP proof costs in this browser, apart from the call: a non-extractable P-256 key
 * made by WebCrypto (as auth-lib's), then `rounds` times the access token's hash (`ath`: SHA-256 of a token-sized
 * string) and an ES256 signature over a proof-sized JWS input. The median ms of one proof.
 *
 * @param {number} rounds
 * @returns {Promise<number>}
 */
async function proofSignMs(rounds) {
  const { privateKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const encoder = new TextEncoder();
  const token = 'x'.repeat(1200);
  const input = encoder.encode('e'.repeat(420));
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await crypto.subtle.digest('SHA-256', encoder.encode(`${token}${i}`));
    await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, input);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? NaN;
}

/** Where the baseline's remote puts its API call on the page (bench/baseline/remote/src/Profile.tsx). */
const BASELINE_CALL = 'gatehouse.bench.baseline-api';

/**
 * In the page: `calls` calls of the profile remote to its API, one after the other; each one's ms from the call to
 * the answer's body read. Gatehouse's remote's caller is its view of the session (the nearest `session` prop with an
 * `api` above its ApiCard: the `<AuthProvider>` the shell wraps the remote in, decisions/0109); the baseline's, the
 * function its remote registered under `baselineCall`.
 *
 * @param {{ calls: number, baselineCall: string | null }} options
 * @returns {Promise<number[]>}
 */
async function timedApiCalls({ calls, baselineCall }) {
  /** @type {() => Promise<Response>} */
  let call;
  if (baselineCall) {
    const found = Reflect.get(globalThis, Symbol.for(baselineCall));
    if (typeof found !== 'function') throw new Error('bench: the baseline remote put no API call on the page');
    call = found;
  } else {
    /** @typedef {{ api: { url: string } | null, authFetch(url: string): Promise<Response> }} View */
    /** @typedef {{ memoizedProps?: { session?: Partial<View> } | null, return: Fiber | null }} Fiber */
    const card = document.querySelector('[data-testid="api-answer"]');
    const fiberKey = card ? Object.keys(card).find((key) => key.startsWith('__reactFiber$')) : undefined;
    /** @type {Fiber | null} */
    let fiber = card && fiberKey ? Reflect.get(card, fiberKey) : null;
    while (fiber && !fiber.memoizedProps?.session?.api) fiber = fiber.return;
    const view = fiber?.memoizedProps?.session;
    if (!view?.api || typeof view.authFetch !== 'function')
      throw new Error("bench: no view of the session above the profile remote's ApiCard");
    const { url } = view.api;
    const authFetch = view.authFetch;
    call = () => authFetch(url);
  }
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const response = await call();
    const body = await response.text();
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`bench: the API answered ${response.status}: ${body.slice(0, 200)}`);
    times.push(ms);
  }
  return times;
}

/**
 * token_requests_per_refresh_5_tabs: five tabs of one browser, all on /profile and signed in; the realm's
 * access tokens last 8 s. Per refresh cycle, once every tab's token has less than 4.5 s left and no token
 * request is on its way, each tab's page session is asked for 10 tokens at once (50 getToken() calls over 5
 * tabs); the POSTs to the token endpoint from all tabs from then until 500 ms after the last call settled are
 * counted. Returns each cycle's count and the
 * getToken() calls that failed (their error codes).
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {{ idpUrl: string, realm: string, tabs?: number, callersPerTab?: number, cycles?: number }} options
 * @returns {Promise<{ perCycle: number[], failed: string[][] }>}
 */
export async function tokensFiveTabs(browser, session, { idpUrl, realm, tabs = 5, callersPerTab = 10, cycles = 3 }) {
  await setAccessTokenLifespan(idpUrl, realm, 8);
  const first = await coldLoad(browser, `${ORIGINS.shell}/profile`, { elementId: PROFILE, storageState: session });
  const { context } = first;
  /** @type {number[]} */
  const tokenPosts = [];
  /** token requests sent and not yet answered */
  const inFlight = new Set();
  context.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().includes(TOKEN_PATH)) return;
    tokenPosts.push(Date.now());
    inFlight.add(request);
  });
  /** @param {import('@playwright/test').Request} request */
  const answered = (request) => inFlight.delete(request);
  context.on('requestfinished', answered);
  context.on('requestfailed', answered);
  try {
    const pages = [first.page];
    for (let i = 1; i < tabs; i++) pages.push((await coldLoad(browser, `${ORIGINS.shell}/profile`, { elementId: PROFILE, context })).page);
    /** @type {number[]} */
    const perCycle = [];
    /** @type {string[][]} */
    const failed = [];
    for (let cycle = 0; cycle < cycles; cycle++) {
      // Every tab's token is due, and no refresh is on its way: a tab that needed a token while the others
      // opened may have started one, whose fresh tokens then make the cycle wait for the next deadline.
      for (;;) {
        await Promise.all(
          pages.map((page) =>
            page.waitForFunction(
              () => {
                const registry = /** @type {PageRegistry | undefined} */ (
                  Reflect.get(globalThis, Symbol.for('gatehouse.auth-lib.session'))
                );
                const snapshot = registry?.session?.getSnapshot();
                return (
                  snapshot?.status === 'authenticated' && snapshot.tokenExpiresAt !== null && snapshot.tokenExpiresAt - Date.now() < 4500
                );
              },
              undefined,
              { timeout: 30_000, polling: 50 },
            ),
          ),
        );
        if (inFlight.size === 0) break;
        await first.page.waitForTimeout(100);
      }
      const counted = tokenPosts.length;
      // a refused refresh (invalid_grant: two tabs used one rotated refresh token) is counted, not thrown
      const failures = await Promise.all(
        pages.map((page) =>
          page.evaluate(async (n) => {
            const registry = /** @type {PageRegistry | undefined} */ (Reflect.get(globalThis, Symbol.for('gatehouse.auth-lib.session')));
            const pageSession = registry?.session;
            if (!pageSession) throw new Error('bench: the page has no auth-lib session');
            const settled = await Promise.allSettled(Array.from({ length: n }, () => pageSession.getToken()));
            return settled.filter((r) => r.status === 'rejected').map((r) => String(r.reason?.code ?? r.reason));
          }, callersPerTab),
        ),
      );
      await first.page.waitForTimeout(500);
      perCycle.push(tokenPosts.length - counted);
      const failedThisCycle = failures.flat();
      failed.push(failedThisCycle);
      if (failedThisCycle.length > 0) break; // a tab that lost its session has nothing left to refresh
    }
    return { perCycle, failed };
  } finally {
    await context.close();
    await setAccessTokenLifespan(idpUrl, realm, 300);
  }
}
