import type { SessionEvent } from '../types';
import { fakeTabBus, fakeTabLocks, type FakeKeycloak } from '../test-support/fakeKeycloak';
import { flush, sessionWithFake } from '../test-support/sessions';
import { channelName } from './otherTabs';
import { SEED_WAIT_MS } from './tabCoordinator';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

/** Tabs of one browser: one channel bus, one lock manager; tab i is created (and campaigns) i-th. */
function browser() {
  const bus = fakeTabBus();
  const locks = fakeTabLocks();
  const tabs: ReturnType<typeof sessionWithFake>[] = [];
  const open = async (configure: (kc: FakeKeycloak) => void = () => undefined) => {
    const tab = sessionWithFake(configure, { tabChannel: bus.factory, tabLocks: locks.locks });
    tabs.push(tab);
    await jest.advanceTimersByTimeAsync(0);
    await tab.session.ready();
    await flush();
    return tab;
  };
  return { bus, locks, tabs, open };
}

const networkRefreshes = (tabs: { instances: FakeKeycloak[] }[]) =>
  tabs.flatMap((t) => t.instances).reduce((sum, kc) => sum + kc.networkRefreshes, 0);

describe('one refresh for all tabs', () => {
  test('exactly one tab leads; followers get their fresh token from its single refresh', async () => {
    const b = browser();
    const leader = await b.open();
    const followers = [await b.open(), await b.open()];
    expect(b.locks.holders()).toBe(1);
    const events: SessionEvent[] = [];
    followers[0]!.session.on((e) => events.push(e));
    jest.setSystemTime(Date.now() + 56_000); // 4 s left in every tab

    const tokens = await Promise.all([...followers, leader].flatMap((t) => [t.session.getToken(), t.session.getToken()]));

    expect(networkRefreshes(b.tabs)).toBe(1);
    expect(leader.kc().networkRefreshes).toBe(1);
    expect(new Set(tokens)).toEqual(new Set([leader.kc().token]));
    for (const f of followers) expect(f.kc().refreshToken).toBe(leader.kc().refreshToken); // rotation: the newest everywhere
    expect(events.map((e) => e.type)).toEqual(['tokenRefreshed']);
  });

  test('forced refreshes asked by two followers at once make one request', async () => {
    const b = browser();
    const leader = await b.open();
    const followers = [await b.open(), await b.open()];
    const before = leader.kc().token;

    const tokens = await Promise.all(followers.map((f) => f.session.getToken({ forceRefresh: true })));

    expect(networkRefreshes(b.tabs)).toBe(1);
    expect(tokens[0]).not.toBe(before);
    expect(new Set(tokens)).toEqual(new Set([leader.kc().token]));
  });

  test('when the leading tab closes, a follower takes over and refreshes itself', async () => {
    const b = browser();
    await b.open();
    const follower = await b.open();
    b.bus.channels[0]!.closed = true; // the leading tab is gone: its channel and its lock
    b.locks.releaseHeld();
    await flush();
    jest.setSystemTime(Date.now() + 56_000);

    const token = await follower.session.getToken();

    expect(follower.kc().networkRefreshes).toBe(1);
    expect(token).toBe(follower.kc().token);
  });

  test('a refresh the provider refuses in the leading tab signs every tab out with reason refresh-refused', async () => {
    const b = browser();
    const leader = await b.open((kc) => (kc.refreshOutcome = 'refused'));
    const follower = await b.open();
    const events: SessionEvent[] = [];
    follower.session.on((e) => events.push(e));
    jest.setSystemTime(Date.now() + 57_000);

    await expect(follower.session.getToken()).rejects.toMatchObject({ code: 'not-authenticated' });
    await flush();

    expect(follower.kc().networkRefreshes).toBe(0);
    expect(leader.session.getSnapshot().signOutReason).toBe('refresh-refused');
    expect(follower.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'refresh-refused' });
    expect(follower.kc().token).toBeUndefined();
    expect(events).toEqual([
      { type: 'refreshFailed', reason: 'refused' },
      { type: 'signedOut', reason: 'refresh-refused' },
    ]);
  });

  test('without the Web Locks API every tab refreshes for itself', async () => {
    const bus = fakeTabBus();
    const tab = sessionWithFake(undefined, { tabChannel: bus.factory, tabLocks: null });
    await tab.session.ready();
    jest.setSystemTime(Date.now() + 56_000);
    await tab.session.getToken();
    expect(tab.kc().networkRefreshes).toBe(1);
  });
});

describe('a new tab', () => {
  test('seeds itself from the leading tab instead of check-sso', async () => {
    const b = browser();
    const leader = await b.open();

    const tab = await b.open((kc) => (kc.initOutcome = 'anonymous')); // check-sso would find nothing

    expect(tab.session.getSnapshot().status).toBe('authenticated');
    expect(tab.kc().initCalls[0]).toMatchObject({ token: leader.kc().token, refreshToken: leader.kc().refreshToken, timeSkew: 0 });
  });

  test('does check-sso when the leading tab is signed out', async () => {
    const b = browser();
    await b.open((kc) => (kc.initOutcome = 'anonymous'));
    const tab = await b.open();
    expect(tab.kc().initCalls[0]?.token).toBeUndefined();
    expect(tab.session.getSnapshot().status).toBe('authenticated');
  });

  test('is signed in from the seed before keycloak-js confirms it, and the confirmation changes nothing', async () => {
    const b = browser();
    const leader = await b.open();

    const tab = await b.open((kc) => (kc.frameAnswer = 'hang')); // init stays open: the provider has not answered

    const before = tab.session.getSnapshot();
    expect(before).toMatchObject({ status: 'authenticated', user: { username: 'alice' }, realmRoles: ['user', 'admin'] });
    expect(await tab.session.getToken()).toBe(leader.kc().token);
    expect(tab.kc().updateTokenCalls).toEqual([]);

    tab.kc().pendingInit.resolve(true);
    await flush();
    expect(tab.session.getSnapshot()).toBe(before);
  });

  test('a refresh asked before the confirmation waits for it: none goes through the unconfirmed instance', async () => {
    const b = browser();
    const leader = await b.open();
    const tab = await b.open((kc) => (kc.frameAnswer = 'hang'));
    jest.setSystemTime(Date.now() + 56_000); // 4 s left: getToken() wants a refresh

    let token: string | null = null;
    void tab.session.getToken().then((t) => (token = t));
    await flush();
    expect(token).toBeNull();
    expect(tab.kc().updateTokenCalls).toEqual([]);
    expect(leader.kc().networkRefreshes).toBe(0);

    tab.kc().pendingInit.resolve(true);
    await flush();
    await flush();
    expect(leader.kc().networkRefreshes).toBe(1); // the tab follows: the leader refreshed for it
    expect(token).toBe(leader.kc().token);
  });

  test('a forced refresh (an API answered 401) waits for the confirmation too', async () => {
    const b = browser();
    await b.open();
    const tab = await b.open((kc) => (kc.frameAnswer = 'hang'));

    const refreshed = tab.session.getToken({ forceRefresh: true });
    await flush();
    expect(tab.kc().updateTokenCalls).toEqual([]);

    tab.kc().pendingInit.resolve(false); // the provider does not vouch for the session
    await expect(refreshed).rejects.toMatchObject({ code: 'not-authenticated' });
    expect(tab.kc().updateTokenCalls).toEqual([]);
  });

  const notConfirmed: [string, (kc: FakeKeycloak) => void, (kc: FakeKeycloak) => Promise<void>][] = [
    ['the login-status frame says changed', (kc) => (kc.frameAnswer = 'changed'), async () => undefined],
    ['init resolves false', (kc) => (kc.frameAnswer = 'hang'), async (kc) => kc.pendingInit.resolve(false)],
    ['init fails', (kc) => (kc.frameAnswer = 'hang'), async (kc) => kc.pendingInit.reject(new Error('Failed to fetch'))],
    ['init does not settle within the timeout', (kc) => (kc.frameAnswer = 'hang'), () => jest.advanceTimersByTimeAsync(10_000)],
  ];
  test.each(notConfirmed)('%s: the seeded tab signs out as for an ended session', async (_, configure, settle) => {
    const b = browser();
    await b.open();
    const tab = sessionWithFake(configure, { tabChannel: b.bus.factory, tabLocks: b.locks.locks });
    const events: SessionEvent[] = [];
    tab.session.on((e) => events.push(e));
    await jest.advanceTimersByTimeAsync(0);
    await flush();

    await settle(tab.kc());
    await flush();

    expect(tab.kc().initCalls[0]?.token).toBeDefined();
    expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-ended', user: null });
    expect(events.map((e) => e.type)).toEqual(['signedIn', 'signedOut']);
    expect(events[1]).toEqual({ type: 'signedOut', reason: 'session-ended' });
    expect(tab.kc().token).toBeUndefined();
    await expect(tab.session.getToken()).rejects.toMatchObject({ code: 'not-authenticated' });
  });

  test('waits 1.5 s (SEED_WAIT_MS) for the leading tab by default, then does check-sso', async () => {
    const b = browser();
    b.tabs.push(sessionWithFake((kc) => (kc.initOutcome = 'hang'), { tabChannel: b.bus.factory, tabLocks: b.locks.locks })); // leads, never settles
    await jest.advanceTimersByTimeAsync(0);
    const tab = sessionWithFake(undefined, { tabChannel: b.bus.factory, tabLocks: b.locks.locks });

    await jest.advanceTimersByTimeAsync(SEED_WAIT_MS - 1);
    expect(tab.instances[0]?.initCalls ?? []).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await flush();

    expect(SEED_WAIT_MS).toBe(1500);
    expect(tab.kc().initCalls).toHaveLength(1);
    expect(tab.kc().initCalls[0]?.token).toBeUndefined();
  });
});

describe('sign-in and sign-out reach every tab', () => {
  test('signing in in one tab signs in a signed-out tab', async () => {
    const b = browser();
    const first = await b.open((kc) => (kc.initOutcome = 'anonymous'));
    const events: SessionEvent[] = [];
    first.session.on((e) => events.push(e));

    const second = await b.open((kc) => (kc.initOutcome = 'anonymous'));
    expect(second.session.getSnapshot().status).toBe('anonymous');
    const third = await b.open(); // e.g. the tab that came back from the login page
    await flush();

    expect(first.session.getSnapshot().status).toBe('authenticated');
    expect(second.session.getSnapshot().status).toBe('authenticated');
    expect(first.kc().token).toBe(third.kc().token);
    expect(events.map((e) => e.type)).toEqual(['signedIn']);
  });

  test('sign-out in one tab signs the other tabs out at once, with reason other-tab, and they stay out', async () => {
    const b = browser();
    const tabA = await b.open();
    const tabB = await b.open();
    const signedOut = jest.fn();
    tabB.session.on(signedOut);
    const leftoverTokens = { token: tabA.kc().token, refreshToken: tabA.kc().refreshToken, idToken: null, timeSkew: 0 };

    await tabA.session.logout();
    // a late share of the ended session's tokens must not sign tabB in again
    b.bus.factory(channelName('gatehouse', 'gatehouse-shell')).postMessage({ type: 'gatehouse-auth:tokens', tokens: leftoverTokens });
    await flush();

    expect(tabB.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'other-tab', user: null });
    expect(signedOut).toHaveBeenCalledWith({ type: 'signedOut', reason: 'other-tab' });
    expect(tabB.kc().token).toBeUndefined(); // tokens dropped from memory, frame checks stop
    expect(tabA.session.getSnapshot().signOutReason).toBe('user');
  });

  test('the channel is named after realm and client; only token messages carry tokens', async () => {
    const b = browser();
    const tab = await b.open();
    const token = tab.kc().token ?? 'missing';
    b.bus.messages.length = 0;

    await tab.session.logout();

    expect(b.bus.channels.map((c) => c.name)).toEqual([channelName('gatehouse', 'gatehouse-shell')]);
    expect(channelName('gatehouse', 'gatehouse-shell')).toBe('gatehouse-auth:gatehouse:gatehouse-shell');
    expect(b.bus.messages).toEqual([{ type: 'gatehouse-auth:signed-out' }]);
    expect(JSON.stringify(b.bus.messages)).not.toContain(token);
  });

  test('tabs of another realm or client are not affected', async () => {
    const bus = fakeTabBus();
    const tabA = sessionWithFake(undefined, { tabChannel: bus.factory, tabLocks: null });
    const other = sessionWithFake(undefined, { tabChannel: bus.factory, tabLocks: null }, { clientId: 'another-app' });
    await Promise.all([tabA.session.ready(), other.session.ready()]);
    await tabA.session.logout();
    expect(other.session.getSnapshot().status).toBe('authenticated');
  });

  test('unrelated and malformed messages on the channel are ignored', async () => {
    const b = browser();
    const tab = await b.open();
    const sender = b.bus.factory(channelName('gatehouse', 'gatehouse-shell'));
    sender.postMessage({ type: 'something-else' });
    sender.postMessage('gatehouse-auth:signed-out');
    sender.postMessage({ type: 'gatehouse-auth:tokens', tokens: { token: 42 } });
    await flush();
    expect(tab.session.getSnapshot().status).toBe('authenticated');
  });
});
