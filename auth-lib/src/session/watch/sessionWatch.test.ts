import type { SessionEvent } from '../../types';
import type { FakeKeycloak } from '../../test-support/fakeKeycloak';
import { browser, flush, sessionWithFake } from '../../test-support/sessions';
import { VOUCH_WAIT_MS } from '../KeycloakSession';
import { pageVisibility, providerFrames, inputTarget, use } from '../../test-support/watchTabs';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

/** `count` signed-in tabs of one browser whose provider check answers `unsupported`. */
async function blockedTabs(count: number, configure: (kc: FakeKeycloak) => void = () => undefined) {
  const b = browser();
  const tabs = [];
  for (let i = 0; i < count; i += 1) {
    const frames = providerFrames();
    const visibility = pageVisibility();
    const activity = inputTarget();
    const tab = await b.open(configure, {
      window: frames.window,
      visibility: visibility.page,
      activityTarget: activity.target,
      development: false,
    });
    const events: SessionEvent[] = [];
    tab.session.on((event) => events.push(event));
    frames.cookiesBlocked();
    tabs.push({ ...tab, visibility, events, input: activity.input });
  }
  await flush();
  const userInfoCalls = () => b.tabs.flatMap((t) => t.instances).reduce((sum, kc) => sum + kc.userInfoCalls, 0);
  const networkRefreshes = () => b.tabs.flatMap((t) => t.instances).reduce((sum, kc) => sum + kc.networkRefreshes, 0);
  const endAtProvider = () => {
    for (const kc of b.tabs.flatMap((t) => t.instances)) {
      kc.userInfoOutcome = 'ended';
      kc.refreshOutcome = 'refused';
    }
  };
  /** what the browser sent the provider for its checks: user-info requests and refresh grants */
  const providerRequests = () => userInfoCalls() + networkRefreshes();
  return { tabs, userInfoCalls, networkRefreshes, providerRequests, endAtProvider };
}

describe('the snapshot and the event say how the session is watched', () => {
  test("'frame' while keycloak-js's login-status frame runs; 'refresh' once the cookie check answers unsupported", async () => {
    const frames = providerFrames();
    const { session } = sessionWithFake(() => undefined, { window: frames.window, development: false });
    await session.ready();
    const events: SessionEvent[] = [];
    session.on((event) => events.push(event));
    expect(session.getSnapshot().sessionWatch).toBe('frame');

    frames.cookiesBlocked();
    frames.cookiesBlocked();

    expect(session.getSnapshot().sessionWatch).toBe('refresh');
    expect(events).toEqual([{ type: 'sessionWatchChanged', watch: 'refresh' }]);
  });

  test("'none' when the checks are turned off (sessionWatchSeconds: 0); an answer from another origin changes nothing", async () => {
    const frames = providerFrames();
    const { session, kc } = sessionWithFake(() => undefined, { window: frames.window, development: false }, { sessionWatchSeconds: 0 });
    await session.ready();
    (frames.window as unknown as EventTarget).dispatchEvent(
      new MessageEvent('message', { origin: 'http://evil.test', data: 'unsupported' }),
    );
    expect(session.getSnapshot().sessionWatch).toBe('frame');

    frames.cookiesBlocked();
    await jest.advanceTimersByTimeAsync(120_000);

    expect(session.getSnapshot().sessionWatch).toBe('none');
    expect([kc().userInfoCalls, kc().networkRefreshes]).toEqual([0, 0]);
  });

  test('in development the console says why and what to do (put the provider on the same site or proxy it)', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const frames = providerFrames();
    const { session } = sessionWithFake(() => undefined, { window: frames.window, development: true });
    await session.ready();

    frames.cookiesBlocked();

    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /blocks the identity provider's cookies.*every 15 s.*put the provider on this site.*or proxy it under/,
    );
  });
});

describe('without the frame, the leading tab asks the provider for the whole browser', () => {
  test('while a visitor uses a tab (input every 10 s in a follower): one user-info request per check across three tabs, every 15 s', async () => {
    const { tabs, userInfoCalls, providerRequests } = await blockedTabs(3);

    await use(tabs[2]!, 15);
    expect(providerRequests()).toBe(1);
    await use(tabs[2]!, 30);
    expect(providerRequests()).toBe(3);
    expect(userInfoCalls()).toBe(3); // the 60 s tokens were valid at every check: no refresh needed
  });

  test('an untouched visible page asks every 4 minutes: 15 requests an hour, for three tabs as for one (decisions/0090)', async () => {
    const { providerRequests } = await blockedTabs(3);

    await jest.advanceTimersByTimeAsync(239_000);
    expect(providerRequests()).toBe(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(providerRequests()).toBe(1);
    await jest.advanceTimersByTimeAsync(3_360_000);
    expect(providerRequests()).toBe(15);
  });

  test('input after a pause asks at once; input within 15 s of a check asks nothing more', async () => {
    const { tabs, providerRequests } = await blockedTabs(2);
    await jest.advanceTimersByTimeAsync(100_000);
    expect(providerRequests()).toBe(0);

    tabs[1]!.input(); // a follower's visitor is back
    await flush();
    expect(providerRequests()).toBe(1);
    tabs[0]!.input();
    tabs[1]!.input();
    await flush();
    expect(providerRequests()).toBe(1);
  });

  test('a session ended at the provider signs every tab out as session-ended: at the next check (15 s) for a visitor using the page', async () => {
    const { tabs, endAtProvider } = await blockedTabs(3);
    await use(tabs[1]!, 20);
    endAtProvider();

    await use(tabs[1]!, 15);

    for (const tab of tabs) {
      expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-ended' });
      expect(tab.events).toContainEqual({ type: 'signedOut', reason: 'session-ended' });
    }
  });

  test('a user-info 401 that comes back after the token ran out on its way (a slow or failing-over provider) is followed by a refresh, which keeps the session', async () => {
    // 20 s tokens: the check at 15 s sends user-info a token with 5 s left (minValidity), answered 6 s later
    const { tabs, userInfoCalls, networkRefreshes } = await blockedTabs(2, (kc) => {
      kc.tokenLifespanSeconds = 20;
      kc.userInfoDelayMs = 6_000;
    });
    // Keycloak's answer to a token that expired before the request arrived
    for (const kc of tabs.flatMap((t) => t.instances)) kc.userInfoOutcome = 'ended';
    const before = tabs[0]!.kc().token;

    await use(tabs[0]!, 15);
    await jest.advanceTimersByTimeAsync(6_000);

    expect([userInfoCalls(), networkRefreshes()]).toEqual([1, 1]);
    for (const tab of tabs) expect(tab.session.getSnapshot()).toMatchObject({ status: 'authenticated', signOutReason: null });
    expect(tabs[0]!.kc().token).not.toBe(before);
    expect(tabs[1]!.kc().token).toBe(tabs[0]!.kc().token);
  });

  test('a user-info 401 that comes back while the token is still valid ends the session at once, without a refresh (the provider would grant one for a revoked token only if its session lived)', async () => {
    const { tabs, userInfoCalls, networkRefreshes } = await blockedTabs(2);
    // user-info refuses the session; a refresh would still be granted (as for a token whose client session alone was dropped)
    for (const kc of tabs.flatMap((t) => t.instances)) kc.userInfoOutcome = 'ended';

    await use(tabs[0]!, 15);

    // the leading tab's check, then the other tab's own question: a message alone ends no session (decisions/0108)
    expect([userInfoCalls(), networkRefreshes()]).toEqual([2, 0]);
    for (const tab of tabs) expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-ended' });
  });

  test('… and within 4 minutes for a page nobody uses', async () => {
    const { tabs, endAtProvider } = await blockedTabs(3);
    endAtProvider();

    await jest.advanceTimersByTimeAsync(235_000);
    for (const tab of tabs) expect(tab.session.getSnapshot().status).toBe('authenticated');
    // the other tabs' tokens ran out meanwhile: each asks the leading tab for fresh ones first (VOUCH_WAIT_MS)
    await jest.advanceTimersByTimeAsync(5_000 + VOUCH_WAIT_MS);
    for (const tab of tabs) expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-ended' });
  });

  test('with an expired access token the check is the refresh (shared with every tab); a refused one is session-ended too', async () => {
    const { tabs, userInfoCalls, networkRefreshes, endAtProvider } = await blockedTabs(2, (kc) => (kc.tokenLifespanSeconds = 10));

    await use(tabs[0]!, 15);
    expect([userInfoCalls(), networkRefreshes()]).toEqual([0, 1]);
    expect(tabs[1]!.kc().token).toBe(tabs[0]!.kc().token);

    endAtProvider();
    await use(tabs[0]!, 15); // the refreshed token has 10 s: expired again
    await jest.advanceTimersByTimeAsync(VOUCH_WAIT_MS); // the other tab asks the leading tab for fresh tokens first

    expect(networkRefreshes()).toBe(2);
    for (const tab of tabs) expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-ended' });
  });

  test('a check that gets no answer keeps the session', async () => {
    const { tabs } = await blockedTabs(2, (kc) => (kc.userInfoOutcome = 'network-error'));
    await use(tabs[0]!, 45);
    await jest.advanceTimersByTimeAsync(500_000);
    for (const tab of tabs) expect(tab.session.getSnapshot().status).toBe('authenticated');
  });

  test('paused while every tab is hidden; a tab shown again asks at once only when a check fell due meanwhile', async () => {
    const { tabs, providerRequests } = await blockedTabs(3);
    for (const tab of tabs) tab.visibility.set(false);

    await jest.advanceTimersByTimeAsync(60_000);
    expect(providerRequests()).toBe(0);
    tabs[2]!.visibility.set(true); // shown again within the 4 minutes: nothing fell due
    await flush();
    expect(providerRequests()).toBe(0);

    tabs[2]!.visibility.set(false);
    await jest.advanceTimersByTimeAsync(600_000);
    expect(providerRequests()).toBe(0);
    tabs[2]!.visibility.set(true); // a follower, after 11 minutes hidden
    await flush();
    expect(providerRequests()).toBe(1);

    // switching between tabs asks nothing more
    tabs[2]!.visibility.set(false);
    tabs[1]!.visibility.set(true);
    await flush();
    expect(providerRequests()).toBe(1);
  });

  test('one hidden tab and one visible: the checks go on', async () => {
    const { tabs, providerRequests } = await blockedTabs(2);
    tabs[0]!.visibility.set(false); // the leader is hidden, a follower is visible

    await jest.advanceTimersByTimeAsync(480_000);

    expect(providerRequests()).toBe(2);
  });

  test('with sessionWatchSeconds: 0 and the frame running, nothing is asked, on a timer or when the tab shows again', async () => {
    const b = browser();
    const visibility = pageVisibility();
    const tab = await b.open(
      () => undefined,
      { window: providerFrames().window, visibility: visibility.page, development: false },
      { sessionWatchSeconds: 0 },
    );
    await jest.advanceTimersByTimeAsync(120_000);
    visibility.set(false);
    visibility.set(true);
    await flush();
    expect([tab.kc().userInfoCalls, tab.kc().networkRefreshes]).toEqual([0, 0]);
    expect(tab.session.getSnapshot().sessionWatch).toBe('frame');
  });
});
