import type { BrowserContext, Page } from '@playwright/test';
import { endSessionsOf } from '@gatehouse/testkit/admin';
import { expect, signIn, status, test } from './support/fixtures';
import { openSignedInTabs, visitorUsing } from './support/tabs';
import { answerThirdPartyCookiesUnsupported } from './support/thirdPartyCookies';

// The bound the platform promises for noticing a session ended at the provider without the frame
// (decisions/0029), with the default check every 15 s while a visitor uses a tab (decisions/0090).
const NOTICED_WITHIN_MS = 30_000;
const CHECK_INTERVAL_MS = 15_000;

/** Times (ms since `since`) of the requests with which any tab asks the provider whether the session lives. */
function watchSessionChecks(context: BrowserContext, realmUrl: string, since: number): number[] {
  const at: number[] = [];
  context.on('request', (request) => {
    if (request.method() === 'OPTIONS') return;
    const url = request.url();
    const userInfo = url === `${realmUrl}/protocol/openid-connect/userinfo`;
    const refresh = url === `${realmUrl}/protocol/openid-connect/token` && (request.postData() ?? '').includes('grant_type=refresh_token');
    if (userInfo || refresh) at.push(Date.now() - since);
  });
  return at;
}

async function openThreeIdleTabs(page: Page, context: BrowserContext, app: Parameters<typeof signIn>[1]): Promise<Page[]> {
  await signIn(page, app);
  const tabs = [page, ...(await openSignedInTabs(context, app, 2))];
  for (const tab of tabs) {
    await expect.poll(() => tab.evaluate(() => window.gatehouse!.snapshot().sessionWatch)).toBe('refresh');
    expect(await tab.evaluate(() => window.gatehouse!.events.filter((e) => e.type === 'sessionWatchChanged'))).toEqual([
      { type: 'sessionWatchChanged', watch: 'refresh' },
    ]);
  }
  return tabs;
}

/**
 * Revokes alice's sessions and waits until every tab is signed out; returns when it revoked (ms since `since`). After
 * the check that finds the session ended, each other tab asks the provider once itself: a tab message alone ends no
 * session (decisions/0108).
 */
async function revokeAndWait(tabs: Page[], idpUrl: string, realm: string, since: number): Promise<number> {
  const revokedAt = Date.now();
  await endSessionsOf(idpUrl, realm, 'alice');
  for (const tab of tabs) {
    await expect.poll(() => status(tab), { timeout: NOTICED_WITHIN_MS - (Date.now() - revokedAt), intervals: [100] }).toBe('anonymous');
  }
  const noticedAfter = Date.now() - revokedAt;
  for (const tab of tabs) expect(await tab.evaluate(() => window.gatehouse!.snapshot().signOutReason)).toBe('session-ended');
  test.info().annotations.push({ type: 'noticed after (ms)', description: String(noticedAfter) });
  return revokedAt - since;
}

/**
 * One request per check for the whole browser while the session lives: consecutive requests are a check interval
 * apart, never one per tab. Once it ended (`revokedAt`), the check that found it and one question per other tab.
 */
function expectOneRequestPerCheck(all: number[], revokedAt: number, tabCount: number): void {
  const checks = all.filter((at) => at < revokedAt);
  expect(checks.length).toBeGreaterThan(0);
  expect(all.length - checks.length).toBeLessThanOrEqual(tabCount);
  const gaps = checks.slice(1).map((at, i) => at - checks[i]!);
  expect(gaps.filter((gap) => gap < CHECK_INTERVAL_MS / 2)).toEqual([]);
  test.info().annotations.push({ type: 'check requests (ms after the tabs were idle)', description: checks.join(', ') });
}

// the page on another site than the provider's, where keycloak-js asks the check this answers (decisions/0097)
test.use({ appHost: '127.0.0.1' });

test.beforeEach(async ({ context, idp }) => {
  await answerThirdPartyCookiesUnsupported(context, idp.url);
});

test('three tabs a visitor uses, without the frame, notice an admin revocation within 30 s, with one user-info request per check', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  const warnings: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  const tabs = await openThreeIdleTabs(page, context, app);
  // the test page is a development build: the console says what happened and what to do
  expect(warnings.filter((text) => /blocks the identity provider's cookies/.test(text))[0]).toMatch(
    /proxy it under http:\/\/127\.0\.0\.1:\d+/,
  );
  expect(warnings.join('\n')).not.toMatch(/eyJ/);
  const since = Date.now();
  const checks = watchSessionChecks(context, `${idp.url}/realms/${realm}`, since);
  const stopUsing = visitorUsing(tabs[1]!); // a follower: its input sets the leader's rhythm
  // let the watch run while the session lives: its checks must not disturb it
  await expect.poll(() => checks.length, { timeout: CHECK_INTERVAL_MS + 5_000 }).toBeGreaterThan(0);
  for (const tab of tabs) expect(await status(tab)).toBe('authenticated');

  const revokedAt = await revokeAndWait(tabs, idp.url, realm, since);
  stopUsing();

  expectOneRequestPerCheck(checks, revokedAt, tabs.length);
});

test('an untouched page asks the provider every sessionWatchIdleSeconds, not every sessionWatchSeconds, and still notices a revocation within that', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  // short settings so the test is short: a check every 2 s while used, every 12 s untouched
  app.configure({ sessionWatchSeconds: 2, sessionWatchIdleSeconds: 12 });
  const tabs = await openThreeIdleTabs(page, context, app);
  const checks = watchSessionChecks(context, `${idp.url}/realms/${realm}`, Date.now());

  // 26 s untouched: two checks (12 s apart), where a check every sessionWatchSeconds would have made 13
  await page.waitForTimeout(26_000);
  test.info().annotations.push({ type: 'checks of the untouched tabs (ms)', description: checks.join(', ') });
  expect(checks.length).toBeGreaterThanOrEqual(1);
  expect(checks.length).toBeLessThanOrEqual(3);

  const revokedAt = Date.now();
  await endSessionsOf(idp.url, realm, 'alice');
  for (const tab of tabs) {
    // one idle interval and the request's time
    await expect.poll(() => status(tab), { timeout: 12_000 + 5_000 - (Date.now() - revokedAt), intervals: [100] }).toBe('anonymous');
  }
  for (const tab of tabs) expect(await tab.evaluate(() => window.gatehouse!.snapshot().signOutReason)).toBe('session-ended');
});

test.describe('with access tokens shorter than the check interval', () => {
  test.use({ tokenLifespan: 10 });

  test('the check is the shared refresh; a refused one signs every tab out within 30 s', async ({ page, context, app, idp, realm }) => {
    const tabs = await openThreeIdleTabs(page, context, app);
    const since = Date.now();
    const checks = watchSessionChecks(context, `${idp.url}/realms/${realm}`, since);
    const stopUsing = visitorUsing(tabs[2]!);
    await expect.poll(() => checks.length, { timeout: CHECK_INTERVAL_MS + 5_000 }).toBeGreaterThan(0);
    // the leader's refresh reaches every tab: its request is seen before its answer is shared, so this waits for that.
    // One token has one expiry, which each tab converts with its own clock skew: keycloak-js measures that in whole
    // seconds when the tab got its first token, so two tabs of one token can differ by a second (refreshes are 5 s apart)
    const expiries = async () => Promise.all(tabs.map((tab) => tab.evaluate(() => window.gatehouse!.snapshot().tokenExpiresAt ?? 0)));
    const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
    await expect.poll(async () => spread(await expiries()), { timeout: 5_000, intervals: [100] }).toBeLessThanOrEqual(1000);

    const revokedAt = await revokeAndWait(tabs, idp.url, realm, since);
    stopUsing();

    expectOneRequestPerCheck(checks, revokedAt, tabs.length);
  });
});
