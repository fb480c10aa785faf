// Headless Chromium through Playwright: a fresh context per cold load (empty cache, cache disabled
// on top), paint times from the page itself (Element Timing, Paint Timing), bytes from the network.

import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumLaunchOptions } from '@gatehouse/testkit/chromium';
import { throttleContext, throttlePage } from './profiles.mjs';

export { CHROMIUM_ARGS };

/** @typedef {import('playwright-core').Browser} Browser */
/** @typedef {import('playwright-core').BrowserContext} BrowserContext */
/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Request} Request */
/** @typedef {import('playwright-core').Response} Response */
/**
 * A browser context's cookies and storage: the identity provider's session once signed in.
 *
 * @typedef {Awaited<ReturnType<BrowserContext['storageState']>>} StorageState
 */

/**
 * What the page records of its own paints (ms since the navigation started).
 *
 * @typedef {{ elements: Record<string, number>, fcp: number | null }} Paints
 */

/**
 * An Element Timing entry (not in TypeScript's DOM library yet).
 *
 * @typedef {PerformanceEntry & { identifier: string, renderTime: number, loadTime: number }} ElementTiming
 */

/**
 * One cold load.
 *
 * @typedef {object} ColdLoad
 * @property {Page} page
 * @property {BrowserContext} context
 * @property {Response[]} responses every response of the page, in order
 * @property {number} paint when the element painted
 * @property {number | null} fcp first contentful paint
 * @property {import('playwright-core').CDPSession} cdp the page's DevTools session (it disabled the cache)
 * @property {(timeoutMs?: number) => Promise<void>} quiet resolves once no request but a held-open stream has been in flight for 500 ms
 */

/**
 * The tests' launch settings in Chromium's browser, not its headless shell (tooling/testkit: CHROMIUM_PATH, else the
 * system's, else Playwright's): the benchmark's baselines were measured in the browser (decisions/0104).
 */
export function launchBrowser() {
  return chromium.launch(chromiumLaunchOptions({ needs: 'browser' }));
}

/**
 * Records, inside the page, when elements with an `elementtiming` attribute were painted and when the
 * first contentful paint happened (ms since the navigation started: the page's own clock).
 */
export function paintRecorder() {
  /** @type {Paints} */
  const paints = { elements: {}, fcp: null };
  Object.defineProperty(window, '__benchPaints', { value: paints });
  new PerformanceObserver((list) => {
    for (const entry of /** @type {ElementTiming[]} */ (list.getEntries())) {
      if (!(entry.identifier in paints.elements)) paints.elements[entry.identifier] = entry.renderTime || entry.loadTime;
    }
  }).observe({ type: 'element', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') paints.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
}

/**
 * One cold load: a new browser context (optionally with the identity provider's cookies), cache
 * disabled, every response recorded. Resolves when the element `elementId` has painted.
 *
 * @param {Browser} browser
 * @param {string} url
 * @param {object} options
 * @param {string} options.elementId the `elementtiming` name of the element whose paint ends the load
 * @param {StorageState} [options.storageState] cookies for the new context (the provider's session)
 * @param {BrowserContext} [options.context] a new tab of this context (its cookies and live tabs) instead of a new context
 * @param {(page: Page, context: BrowserContext) => unknown} [options.beforeGoto] awaited before the page is opened
 * @param {number} [options.cpuRate] Chromium's CPU slow-down for the page, its frames and the new context's other pages
 *   (bench/lib/profiles.mjs; 1: none)
 * @param {number} [options.timeoutMs]
 * @returns {Promise<ColdLoad>}
 */
export async function coldLoad(browser, url, { elementId, storageState, context: existing, beforeGoto, cpuRate = 1, timeoutMs = 30_000 }) {
  // a new tab of an existing browser context (its cookies and live tabs), or a fresh context
  let context = existing;
  if (!context) {
    context = await browser.newContext(storageState ? { storageState } : {});
    throttleContext(context, cpuRate);
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await throttlePage(page, cpuRate, cdp);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(paintRecorder);
  /** @type {Response[]} */
  const responses = [];
  page.on('response', (response) => responses.push(response));
  const quiet = networkQuiet(page);
  if (beforeGoto) await beforeGoto(page, context);
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    (id) => {
      const paints = /** @type {Window & { __benchPaints?: Paints }} */ (window).__benchPaints;
      return paints && paints.elements[id] !== undefined ? { paint: paints.elements[id], fcp: paints.fcp } : null;
    },
    elementId,
    { timeout: timeoutMs, polling: 50 },
  );
  // waitForFunction resolves with the function's first truthy value: never the null
  const { paint, fcp } = /** @type {{ paint: number, fcp: number | null }} */ (await handle.jsonValue());
  return { page, context, responses, paint, fcp, cdp, quiet };
}

/**
 * What Playwright's `networkidle` waits for — no request in flight for 500 ms — but past a stream the page holds open
 * (`Accept: text/event-stream`: the session-events stream of a signed-in Gatehouse page, decisions/0118), with which
 * `networkidle` never comes. Resolves at the latest after `timeoutMs`, as the `networkidle` waits it replaces did.
 *
 * @param {Page} page @returns {(timeoutMs?: number) => Promise<void>}
 */
function networkQuiet(page) {
  /** @type {Set<Request>} */
  const inFlight = new Set();
  let lastChange = Date.now();
  page.on('request', (request) => {
    if ((request.headers()['accept'] ?? '').includes('text/event-stream')) return;
    inFlight.add(request);
    lastChange = Date.now();
  });
  const done = (/** @type {Request} */ request) => {
    if (inFlight.delete(request)) lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async (timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && !(inFlight.size === 0 && Date.now() - lastChange >= 500)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}

/**
 * Encoded (on-the-wire body, here gzip) size of a response in bytes; a size that cannot be read fails the run.
 *
 * @param {Response} response
 * @returns {Promise<number>}
 */
export async function encodedSize(response) {
  let sizes;
  try {
    sizes = await response.request().sizes();
  } catch (error) {
    throw new Error(
      `bench: cannot read the size of ${response.url()} (${error instanceof Error ? error.message : String(error)}); a size is never counted as 0 bytes.`,
      {
        cause: error,
      },
    );
  }
  if (!Number.isFinite(sizes.responseBodySize) || sizes.responseBodySize <= 0) {
    throw new Error(`bench: ${response.url()} reports a body of ${sizes.responseBodySize} bytes; a size is never counted as 0 bytes.`);
  }
  return sizes.responseBodySize;
}
