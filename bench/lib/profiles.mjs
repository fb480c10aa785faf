// The device profiles the page keys are measured in (bench/JOURNAL.md, "Performance IV"): `fast`, this machine as it is, and
// `cpu4x`, Chromium's main thread slowed down 4× through the DevTools protocol (`Emulation.setCPUThrottlingRate`, as
// Lighthouse's mobile profile does), for Gatehouse and the baseline alike. The throttling is set on every page the
// measurement opens before it navigates (first tabs, second tabs, any popup) and on every out-of-process frame of it
// (a provider on another site: its frames run in a renderer of their own, which the page's rate does not reach).

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} BrowserContext */
/** @typedef {import('playwright-core').CDPSession} CDPSession */

/**
 * One profile: its name (`--profiles`), the suffix of its keys in results.json (none for `fast`, whose keys are the
 * ones measured before profiles existed) and Chromium's CPU slow-down factor (1: none).
 *
 * @typedef {{ name: string, suffix: string, cpuRate: number, what: string }} Profile
 */

/** @type {readonly Profile[]} */
export const PROFILES = [
  { name: 'fast', suffix: '', cpuRate: 1, what: 'this machine, no throttling' },
  { name: 'cpu4x', suffix: '_cpu4x', cpuRate: 4, what: "Chromium's CPU throttled 4× (Emulation.setCPUThrottlingRate)" },
];

/**
 * The profiles a `--profiles` value names (comma-separated), in PROFILES' order.
 *
 * @param {string} value e.g. "fast,cpu4x"
 * @returns {Profile[]}
 */
export function profilesOf(value) {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names)
    if (!PROFILES.some((p) => p.name === name))
      throw new Error(`bench: unknown profile "${name}" (--profiles takes ${PROFILES.map((p) => p.name).join(', ')})`);
  const chosen = PROFILES.filter((p) => names.includes(p.name));
  if (chosen.length === 0) throw new Error('bench: --profiles names no profile');
  return chosen;
}

/** Pages already throttled (or being), so that a page the bench opens and the context's `page` event agree. */
/** @type {WeakMap<Page, Promise<void>>} */
const throttled = new WeakMap();

/**
 * Slows the page's renderer down `rate` times before it navigates, and every out-of-process frame it gets later:
 * the page's DevTools session auto-attaches to its frame targets, each one paused before it runs a script
 * (`waitForDebuggerOnStart`) until its own rate is set. Non-flat sessions (`Target.sendMessageToTarget`), since
 * Playwright's CDP session addresses only its own target. A rate of 1 does nothing.
 *
 * @param {Page} page
 * @param {number} rate
 * @param {CDPSession} [cdp] the page's session, if the caller has one
 * @returns {Promise<void>}
 */
export function throttlePage(page, rate, cdp) {
  if (rate <= 1) return Promise.resolve();
  let done = throttled.get(page);
  if (!done) {
    done = applyThrottling(page, rate, cdp);
    throttled.set(page, done);
  }
  return done;
}

/**
 * Every page the context opens from now on (popups, tabs a page opens) throttled as soon as it appears; pages the
 * bench opens itself are throttled before their navigation by throttlePage.
 *
 * @param {BrowserContext} context @param {number} rate
 */
export function throttleContext(context, rate) {
  if (rate <= 1) return;
  context.on('page', (page) => {
    throttlePage(page, rate).catch(() => undefined); // a page closed before its session opened
  });
}

/** @param {Page} page @param {number} rate @param {CDPSession} [existing] */
async function applyThrottling(page, rate, existing) {
  const cdp = existing ?? (await page.context().newCDPSession(page));
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  let id = 0;
  cdp.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
    /** @param {string} method @param {object} [params] */
    const send = (method, params = {}) =>
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method, params }) }).catch(() => undefined);
    // frames get the page's rate; anything else (a worker) only goes on
    const throttle = targetInfo.type === 'iframe' ? send('Emulation.setCPUThrottlingRate', { rate }) : Promise.resolve();
    void throttle.then(() => send('Runtime.runIfWaitingForDebugger'));
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
}

/**
 * The keys of the pages, measured once per profile: the cold loads and reloads a visitor waits for. The other keys
 * (sizes, copies, token requests, builds, the API call, the provider's cost) are the `fast` profile's only.
 */
export const PAGE_KEYS = /** @type {const} */ ([
  'time_to_public_visible_ms',
  'time_to_remote_visible_ms',
  'time_to_remote_visible_second_tab_ms',
  'auth_overhead_ratio',
  'auth_overhead_ms',
  'time_to_public_visible_keycloak_ms',
  'time_to_remote_visible_keycloak_ms',
  'time_to_remote_visible_second_tab_keycloak_ms',
  'auth_overhead_keycloak_ms',
  'time_to_remote_visible_cross_site_allowed_ms',
  'reload_signed_in_cross_site_allowed_ms',
  'time_to_remote_visible_cross_site_blocked_ms',
  'reload_signed_in_cross_site_blocked_ms',
  'time_to_remote_visible_same_site_ms',
  'reload_signed_in_same_site_ms',
]);
