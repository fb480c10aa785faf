import type { SessionEvent } from '../../types';
import type { FakeKeycloak } from '../../test-support/fakeKeycloak';
import { browser, flush, sessionWithFake } from '../../test-support/sessions';
import { SEED_WAIT_MS } from './tabCoordinator';

// A new tab seeded by a live tab: signed in at once, confirmed by keycloak-js behind it (seedCheck.ts, decisions/0025).

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('a seeded tab', () => {
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
    await jest.advanceTimersByTimeAsync(0);
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

    tab.kc().pendingInit.reject(new Error('Failed to fetch')); // keycloak-js could not be readied
    await expect(refreshed).rejects.toMatchObject({ code: 'not-authenticated' });
    expect(tab.kc().updateTokenCalls).toEqual([]);
  });

  test("a leader's refresh shared before the confirmation is taken once keycloak-js holds the session", async () => {
    const b = browser();
    const leader = await b.open();
    const tab = await b.open((kc) => (kc.frameAnswer = 'hang'));
    const seeded = tab.kc().token;

    await leader.session.getToken({ forceRefresh: true }); // the leader refreshes and shares
    await flush();
    expect(tab.kc().token).toBe(seeded);

    tab.kc().pendingInit.resolve(true);
    await flush();
    await flush();
    expect(tab.kc().token).toBe(leader.kc().token);
    expect(tab.kc().refreshToken).toBeUndefined(); // the refresh token never crosses tabs (decisions/0053)
  });

  test('logout before the confirmation waits for it, then signs out at the provider', async () => {
    const b = browser();
    await b.open();
    const tab = await b.open((kc) => (kc.frameAnswer = 'hang'));

    const done = tab.session.logout();
    await flush();
    expect(tab.kc().logoutCalls).toEqual([]);

    tab.kc().pendingInit.resolve(true);
    await done;
    expect(tab.kc().logoutCalls).toHaveLength(1);
    expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'user' });
  });

  const notConfirmed: [string, (kc: FakeKeycloak) => void, (kc: FakeKeycloak) => Promise<void>][] = [
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

    expect(tab.kc().initCalls[0]?.onLoad).toBeUndefined(); // it was a seeded tab
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
