import type { SessionEvent } from '../../types';
import { fakeTabBus, type FakeKeycloak } from '../../test-support/fakeKeycloak';
import { browser, flush, sessionWithFake } from '../../test-support/sessions';
import { channelName } from './tabChannel';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

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
    for (const f of followers) expect(f.kc().refreshToken).toBeUndefined(); // the refresh token never crosses tabs (decisions/0053)
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

  test('when the leading tab closes, a follower takes over and, holding no refresh token, signs itself in with check-sso', async () => {
    const b = browser();
    await b.open();
    const follower = await b.open();
    const seeded = follower.kc();
    b.bus.channels[0]!.closed = true; // the leading tab is gone: its channel and its lock
    b.locks.releaseHeld();
    await flush();
    jest.setSystemTime(Date.now() + 56_000);

    const token = await follower.session.getToken();

    expect(follower.instances).toHaveLength(2);
    expect(follower.kc().initCalls[0]).toMatchObject({ onLoad: 'check-sso' });
    expect(token).toBe(follower.kc().token);
    expect(follower.kc().refreshToken).toBeDefined(); // its own, from the provider
    expect(seeded.token).toBeUndefined(); // the seeded instance is dropped
    expect(follower.session.getSnapshot().status).toBe('authenticated');
  });

  test('a refresh the provider refuses in the leading tab signs every tab out with reason refresh-refused', async () => {
    const b = browser();
    const leader = await b.open();
    const follower = await b.open();
    const events: SessionEvent[] = [];
    follower.session.on((e) => events.push(e));
    jest.setSystemTime(Date.now() + 57_000);
    b.provider.ended = true; // the provider's session is gone: it refuses the refresh and user-info

    await follower.session.getToken().catch(() => undefined); // its own token, still valid for 3 s, or the refusal
    await jest.advanceTimersByTimeAsync(0);
    await flush();

    expect(follower.kc().networkRefreshes).toBe(0);
    expect(leader.session.getSnapshot().signOutReason).toBe('refresh-refused');
    // the leading tab's word alone does not end it: the provider answered the follower's own question (decisions/0108)
    expect(follower.kc().userInfoCalls).toBe(1);
    expect(follower.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'refresh-refused' });
    expect(follower.kc().token).toBeUndefined();
    expect(events).toContainEqual({ type: 'signedOut', reason: 'refresh-refused' });
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
    expect(tab.kc().token).toBe(leader.kc().token);
    expect(tab.kc().refreshToken).toBeUndefined();
    expect(tab.kc().initCalls[0]).toMatchObject({ checkLoginIframe: false });
    expect(tab.kc().initCalls[0]?.onLoad).toBeUndefined(); // no check-sso: keycloak-js is only readied
  });

  test('does check-sso when the leading tab is signed out', async () => {
    const b = browser();
    await b.open((kc) => (kc.initOutcome = 'anonymous'));
    const tab = await b.open();
    expect(tab.kc().initCalls[0]?.token).toBeUndefined();
    expect(tab.session.getSnapshot().status).toBe('authenticated');
  });
});

describe('sign-in and sign-out reach every tab', () => {
  test('signing in in one tab signs in a signed-out tab: it asks the provider itself (silent check-sso), whose tokens it takes', async () => {
    const b = browser();
    let providerSession = false; // the provider's session cookie in this browser
    const signedOutUntilSignIn = (kc: FakeKeycloak) => {
      if (!providerSession) kc.initOutcome = 'anonymous';
    };
    const first = await b.open(signedOutUntilSignIn);
    const events: SessionEvent[] = [];
    first.session.on((e) => events.push(e));

    const second = await b.open(signedOutUntilSignIn);
    expect(second.session.getSnapshot().status).toBe('anonymous');
    providerSession = true;
    const third = await b.open(); // e.g. the tab that came back from the login page
    await jest.advanceTimersByTimeAsync(0);
    await flush();

    for (const tab of [first, second]) {
      expect(tab.session.getSnapshot().status).toBe('authenticated');
      expect(tab.kc().initCalls[0]).toMatchObject({ onLoad: 'check-sso', silentCheckSsoFallback: false });
      expect(tab.kc().refreshToken).toBeDefined(); // its own, from the provider
    }
    expect(first.instances).toHaveLength(2); // a fresh keycloak-js instance asked the provider; the message's tokens are unused
    expect(third.session.getSnapshot().status).toBe('authenticated');
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
