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
 * @typedef {{ shell: string, profile: string, expose: string }} Origins
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
 * @param {{ keep?: boolean, origins?: Origins }} [options] `keep`: leave its context open
 * @returns {Promise<ColdLoad>}
 */
export async function publicLoad(browser, { keep = false, origins = GATEHOUSE } = {}) {
  const load = await coldLoad(browser, `${origins.shell}/`, { elementId: HOME });
  if (!keep) await load.context.close();
  return load;
}

/**
 * Cold load of /profile with a session at the provider: ms to the remote's heading painted.
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {{ keep?: boolean, origins?: Origins }} [options] `keep`: leave its context open
 * @returns {Promise<ColdLoad>}
 */
export async function remoteLoad(browser, session, { keep = false, origins = GATEHOUSE } = {}) {
  const load = await coldLoad(browser, `${origins.shell}/profile`, { elementId: PROFILE, storageState: session });
  if (!keep) await load.context.close();
  return load;
}

/**
 * Every response of a load once the network is idle; `bytes()` reads a body's size only when it is counted.
 *
 * @param {ColdLoad} load
 */
async function settledResponses(load) {
  await load.page.waitForLoadState('networkidle').catch(() => undefined);
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
export const BASELINE = { shell: ORIGINS.baselineHost, profile: ORIGINS.baselineRemote, expose: './Profile' };
/** @type {Origins} */
const GATEHOUSE = { shell: ORIGINS.shell, profile: ORIGINS.profile, expose: './App' };

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
    await load.page.waitForLoadState('networkidle').catch(() => undefined);
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
 * time_to_remote_visible_second_tab_ms: a browser already signed in, with /profile open in one tab,
 * opens /profile in a second tab (cache disabled, as every cold load here): ms to the remote's heading.
 * Returns the times of `loads` second tabs, each closed before the next one opens.
 *
 * @param {Browser} browser
 * @param {StorageState} session
 * @param {number} loads
 * @param {Origins} [origins]
 * @returns {Promise<number[]>}
 */
export async function secondTabLoads(browser, session, loads, origins = GATEHOUSE) {
  const first = await coldLoad(browser, `${origins.shell}/profile`, { elementId: PROFILE, storageState: session });
  /** @type {number[]} */
  const times = [];
  try {
    for (let i = 0; i < loads; i++) {
      const load = await coldLoad(browser, `${origins.shell}/profile`, { elementId: PROFILE, context: first.context });
      times.push(load.paint);
      await load.page.close();
    }
  } finally {
    await first.context.close();
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
