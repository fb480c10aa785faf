// How fast an untouched signed-in page notices that an administrator ended its session: Gatehouse (the
// session-events service pushes the provider's back-channel logout to the page's leading tab, decisions/0118) beside
// the baseline (plain keycloak-js: no push; only its login-status frame could notice). Method: bench/README.md.

import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { BASELINE, signIn } from './measure.mjs';
import { round, summarize } from './stats.mjs';
import { ORIGINS } from './topology.mjs';

/** @typedef {import('./browser.mjs').Browser} Browser */
/** @typedef {import('./browser.mjs').StorageState} StorageState */
/** @typedef {import('playwright').BrowserContext} BrowserContext */
/** @typedef {import('playwright').Page} Page */

/** The keys this stage writes (on Keycloak with `_keycloak` before `_ms`, as the other Keycloak keys), Gatehouse's and the baseline's. */
export const REVOCATION_KEYS = /** @type {const} */ (['revocation_noticed_ms', 'revocation_noticed_hidden_ms']);
/** The longest the bench waits for a page to notice, from the start of the administrator's logout call. */
export const NOTICE_CAP_MS = 60_000;
/** What results.json says for a setup that did not notice within the cap (in most of the repetitions). */
export const NOT_NOTICED = `not noticed within ${NOTICE_CAP_MS / 1000} s`;

const PROFILE_HEADING = '[elementtiming="profile-heading"]';
/** the shell's notice of an ended session (shell/src/layout/SessionNotice.tsx) */
const SESSION_NOTICE = '[data-testid="session-notice"]';
const ENDED_TEXT = 'Your session ended';
const REALM = 'gatehouse';
const USER = 'alice';

/**
 * The page's own record of when it noticed (ms since the epoch, the bench's clock: one machine): Gatehouse's shell
 * shows the session notice (a MutationObserver, at the DOM change, before paint); the baseline's keycloak-js hears
 * `changed` from its login-status frame (what makes it clear its token and fire `onAuthLogout`; the baseline shows
 * nothing of it, so the message is the earliest sign it noticed).
 *
 * @param {BrowserContext} context @param {{ setup: 'gatehouse' | 'baseline', hidden: boolean, provider: string }} how
 */
async function watchForNotice(context, { setup, hidden, provider }) {
  if (hidden) {
    // as providerCost's `hidden` scenario: Playwright has no hidden tab; the page reads the Page Visibility API
    await context.addInitScript(() => {
      Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'hidden', configurable: true });
      Object.defineProperty(Document.prototype, 'hidden', { get: () => true, configurable: true });
    });
  }
  await context.addInitScript(
    ({ setup: which, provider: idp, notice, text }) => {
      if (window !== window.top) return;
      const at = /** @type {{ __benchArmed?: boolean, __benchNoticedAt?: number, __benchFrameChecked?: boolean }} */ (
        /** @type {unknown} */ (window)
      );
      // armed just before the logout call: keycloak-js's check-sso hears `changed` once before it is signed in
      const noticed = () => {
        if (at.__benchArmed && at.__benchNoticedAt === undefined) at.__benchNoticedAt = Date.now();
      };
      if (which === 'baseline') {
        window.addEventListener('message', (event) => {
          if (event.origin !== idp) return;
          if (event.data === 'unchanged') at.__benchFrameChecked = true;
          if (event.data === 'changed') noticed();
        });
        return;
      }
      new MutationObserver(() => {
        if (document.querySelector(notice)?.textContent?.includes(text)) noticed();
      }).observe(document, { childList: true, subtree: true, characterData: true });
    },
    { setup, provider, notice: SESSION_NOTICE, text: ENDED_TEXT },
  );
}

/**
 * One browser (context) signed in to the provider session `session`, one tab on /profile, its heading painted;
 * Gatehouse's with its session-events stream open (the service's answer arrived), the baseline's once its login-status
 * frame has answered `unchanged` (keycloak-js's first check, 5 s after its sign-in): both are listening.
 *
 * @param {Browser} browser @param {StorageState} session @param {{ setup: 'gatehouse' | 'baseline', hidden: boolean, provider: string }} how
 */
async function openPage(browser, session, how) {
  const context = await browser.newContext({ storageState: session });
  await watchForNotice(context, how);
  const page = await context.newPage();
  const stream =
    how.setup === 'gatehouse'
      ? page.waitForResponse((response) => response.url() === `${ORIGINS.sessionEvents}/events` && response.status() === 200, {
          timeout: 30_000,
        })
      : null;
  await page.goto(`${how.setup === 'gatehouse' ? ORIGINS.shell : BASELINE.shell}/profile`);
  await page.locator(PROFILE_HEADING).waitFor({ timeout: 30_000 });
  await stream;
  if (how.setup === 'baseline')
    await page.waitForFunction(
      () => /** @type {{ __benchFrameChecked?: boolean }} */ (/** @type {unknown} */ (window)).__benchFrameChecked,
      null,
      {
        timeout: 30_000,
      },
    );
  return { context, page };
}

/**
 * The median of the repetitions, a run that did not notice counting as longer than any that did; null when that is
 * most of them (the median is past the cap).
 *
 * @param {readonly (number | null)[]} values
 */
function cappedMedian(values) {
  const sorted = values.map((v) => v ?? Infinity).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] ?? Infinity) : ((sorted[mid - 1] ?? Infinity) + (sorted[mid] ?? Infinity)) / 2;
  return Number.isFinite(median) ? round(median, 0) : null;
}

/**
 * `repetitions` times: alice signs in (a new provider session), four browsers open /profile with that session —
 * Gatehouse's and the baseline's, each one visible and one hidden tab — and nobody touches them; then the provider's
 * administrator logs alice out (`POST /admin/realms/gatehouse/users/{id}/logout`, signed in and the user looked up
 * before), and each page's notice is awaited up to NOTICE_CAP_MS from that call's start.
 *
 * @param {object} options
 * @param {Browser} options.browser
 * @param {string} options.providerUrl the provider's base URL (the dev provider's or Keycloak's, on the same port)
 * @param {number} options.repetitions
 * @param {(message: string) => void} options.log
 * @param {string} [options.adminPassword] the provider administrator's (default: signInAsAdmin's)
 * @param {string} [options.suffix] in every key before `_ms` (`_keycloak`: `revocation_noticed_keycloak_ms`)
 */
export async function measureRevocation({ browser, providerUrl, repetitions, log, adminPassword, suffix = '' }) {
  const setups = /** @type {const} */ ([
    ['gatehouse', false],
    ['gatehouse', true],
    ['baseline', false],
    ['baseline', true],
  ]);
  /** @type {Array<{ logout_call_ms: number, noticed_ms: Record<string, number | null> }>} */
  const runs = [];
  const provider = new URL(providerUrl).origin;
  for (let i = 0; i < repetitions; i++) {
    const session = await signIn(browser, USER);
    const opened = [];
    // one after the other: their own sign-in checks are not what is measured
    for (const [setup, hidden] of setups)
      opened.push({ setup, hidden, ...(await openPage(browser, session, { setup, hidden, provider })) });
    try {
      const admin = await signInAsAdmin(providerUrl, adminPassword === undefined ? {} : { password: adminPassword });
      const [user] = await admin.users.find({ realm: REALM, username: USER, exact: true });
      if (!user?.id) throw new Error(`bench: no user "${USER}" in realm "${REALM}" at ${providerUrl}`);
      for (const { page, setup } of opened) {
        const ended = await page.evaluate((notice) => {
          /** @type {{ __benchArmed?: boolean }} */ (/** @type {unknown} */ (window)).__benchArmed = true;
          return document.querySelector(notice) !== null;
        }, SESSION_NOTICE);
        if (ended) throw new Error(`bench: the ${setup} page shows a session notice before the administrator's logout`);
      }
      const started = Date.now();
      await admin.users.logout({ realm: REALM, id: user.id });
      const returned = Date.now();
      const noticed = await Promise.all(
        opened.map(async ({ page }) => {
          const at = await page
            .waitForFunction(() => /** @type {{ __benchNoticedAt?: number }} */ (/** @type {unknown} */ (window)).__benchNoticedAt, null, {
              timeout: Math.max(1, started + NOTICE_CAP_MS - Date.now()),
              polling: 50,
            })
            .then((handle) => /** @type {Promise<number>} */ (handle.jsonValue()))
            .catch(() => null);
          return at === null ? null : at - started;
        }),
      );
      /** @type {Record<string, number | null>} */
      const byPage = {};
      opened.forEach(({ setup, hidden }, j) => (byPage[`${setup}${hidden ? '_hidden' : ''}`] = noticed[j] ?? null));
      runs.push({ logout_call_ms: returned - started, noticed_ms: byPage });
      const show = (/** @type {number | null} */ ms) => (ms === null ? `> ${NOTICE_CAP_MS} (${NOT_NOTICED})` : `${ms}`);
      log(
        `revocation${suffix} ${i + 1}/${repetitions}: noticed after (ms) ` +
          Object.entries(byPage)
            .map(([name, ms]) => `${name} ${show(ms)}`)
            .join(', ') +
          `; the logout call took ${returned - started} ms`,
      );
    } finally {
      await Promise.all(opened.map(({ context }) => context.close()));
    }
  }
  /** @param {string} name */
  const of = (name) => runs.map((run) => run.noticed_ms[name] ?? null);
  /** @type {Record<'gatehouse' | 'baseline', Record<string, number | null>>} */
  const figures = { gatehouse: {}, baseline: {} };
  /** @type {Record<'gatehouse' | 'baseline', Record<string, import('./stats.mjs').Summary>>} the runs that noticed */
  const spread = { gatehouse: {}, baseline: {} };
  /** @type {Record<string, string>} */
  const notes = {};
  for (const setup of /** @type {const} */ (['gatehouse', 'baseline'])) {
    /** @type {Array<[string, string]>} key, page */
    const keys = [
      [`revocation_noticed${suffix}_ms`, setup],
      [`revocation_noticed_hidden${suffix}_ms`, `${setup}_hidden`],
    ];
    for (const [key, name] of keys) {
      const values = of(name);
      figures[setup][key] = cappedMedian(values);
      const noticed = summarize(values);
      if (noticed.n > 0) spread[setup][key] = { median: round(noticed.median, 0), min: noticed.min, max: noticed.max, n: noticed.n };
      const missed = values.filter((v) => v === null).length;
      if (missed > 0) notes[`${setup === 'baseline' ? 'baseline.' : ''}${key}`] = `${NOT_NOTICED} in ${missed} of ${values.length} runs`;
    }
  }
  return {
    gatehouse: figures.gatehouse,
    baseline: figures.baseline,
    spread,
    details: { cap_ms: NOTICE_CAP_MS, measured_from: "the start of the administrator's logout call", runs, notes },
  };
}
