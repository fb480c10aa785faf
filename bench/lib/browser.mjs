// Headless Chromium through Playwright: a fresh context per cold load (empty cache, cache disabled
// on top), paint times from the page itself (Element Timing, Paint Timing), bytes from the network.

import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumLaunchOptions } from '../../tooling/testkit/src/chromium.cjs';

export { CHROMIUM_ARGS };

/** The tests' Chromium and launch settings (tooling/testkit: CHROMIUM_PATH, else the system's, else Playwright's). */
export function launchBrowser() {
  return chromium.launch(chromiumLaunchOptions());
}

/**
 * Records, inside the page, when elements with an `elementtiming` attribute were painted and when the
 * first contentful paint happened (ms since the navigation started: the page's own clock).
 */
function paintRecorder() {
  const paints = { elements: {}, fcp: null };
  Object.defineProperty(window, '__benchPaints', { value: paints });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
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
 * @returns {Promise<{ page, context, responses: import('playwright-core').Response[], paint: number, fcp: number|null }>}
 */
export async function coldLoad(browser, url, { elementId, storageState, context: existing, beforeGoto, timeoutMs = 30_000 } = {}) {
  // a new tab of an existing browser context (its cookies and live tabs), or a fresh context
  const context = existing ?? (await browser.newContext(storageState ? { storageState } : {}));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(paintRecorder);
  const responses = [];
  page.on('response', (response) => responses.push(response));
  if (beforeGoto) await beforeGoto(page, context);
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    (id) => {
      const paints = window.__benchPaints;
      return paints && paints.elements[id] !== undefined ? { paint: paints.elements[id], fcp: paints.fcp } : null;
    },
    elementId,
    { timeout: timeoutMs, polling: 50 },
  );
  const { paint, fcp } = await handle.jsonValue();
  return { page, context, responses, paint, fcp };
}

/** Encoded (on-the-wire body, here gzip) size of a response in bytes; a size that cannot be read fails the run. */
export async function encodedSize(response) {
  let sizes;
  try {
    sizes = await response.request().sizes();
  } catch (error) {
    throw new Error(`bench: cannot read the size of ${response.url()} (${error.message}); a size is never counted as 0 bytes.`, {
      cause: error,
    });
  }
  if (!Number.isFinite(sizes.responseBodySize) || sizes.responseBodySize <= 0) {
    throw new Error(`bench: ${response.url()} reports a body of ${sizes.responseBodySize} bytes; a size is never counted as 0 bytes.`);
  }
  return sizes.responseBodySize;
}
