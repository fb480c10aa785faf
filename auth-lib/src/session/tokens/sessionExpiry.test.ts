import type { SessionEvent } from '../../types';
import { fakeTabBus, fakeTabLocks } from '../../test-support/fakeKeycloak';
import { flush, sessionWithFake } from '../../test-support/sessions';

const UNWATCHED = { sessionWatchSeconds: 0 };

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('a warning before the session ends', () => {
  // these pages do not watch the provider (sessionWatchSeconds: 0): the watch's check refreshes an expired token,
  // which moves the end; what it does to an idle page is covered in sessionWatch.test.ts
  test('expiresAt is the refresh token expiry; sessionExpiring comes 60 s before; handlers run; then signed out', async () => {
    const { session, kc } = sessionWithFake((k) => (k.refreshLifespanSeconds = 300), {}, UNWATCHED);
    await session.ready();
    const events: SessionEvent[] = [];
    session.on((e) => events.push(e));
    const expiresAt = Date.now() + 300_000;
    expect(session.getSnapshot().expiresAt).toBe(expiresAt);
    const saved: string[] = [];
    session.onBeforeSessionEnd(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      saved.push('draft');
    });
    session.onBeforeSessionEnd(() => new Promise(() => undefined)); // never settles: bounded

    await jest.advanceTimersByTimeAsync(239_000);
    expect(events).toEqual([]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(events).toEqual([{ type: 'sessionExpiring', expiresAt }]);

    await jest.advanceTimersByTimeAsync(60_000);
    await flush();
    expect(saved).toEqual(['draft']);
    expect(session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-expired' });
    expect(events.map((e) => e.type)).toEqual(['sessionExpiring', 'signedOut']);
    expect(Date.now()).toBe(expiresAt); // not earlier: the provider's session lasts until then
    expect(kc().token).toBeUndefined();
  });

  test('"Stay signed in" (extend) refreshes and moves the end', async () => {
    const { session, kc } = sessionWithFake((k) => (k.refreshLifespanSeconds = 300), {}, UNWATCHED);
    await session.ready();
    await jest.advanceTimersByTimeAsync(250_000);

    await session.extend();

    expect(kc().networkRefreshes).toBe(1);
    expect(session.getSnapshot().expiresAt).toBe(Date.now() + 300_000);
    await jest.advanceTimersByTimeAsync(100_000);
    expect(session.getSnapshot().status).toBe('authenticated');
  });

  test('every tab computes the same deadline, and extend in one tab moves it in all', async () => {
    const bus = fakeTabBus();
    const { locks } = fakeTabLocks();
    const tabs = [0, 1].map(() => sessionWithFake((k) => (k.refreshLifespanSeconds = 300), { tabChannel: bus.factory, tabLocks: locks }));
    for (const tab of tabs) {
      await jest.advanceTimersByTimeAsync(0);
      await tab.session.ready();
    }
    await jest.advanceTimersByTimeAsync(100_000);
    await tabs[1]!.session.extend();
    expect(tabs[0]!.session.getSnapshot().expiresAt).toBe(Date.now() + 300_000);
    expect(tabs[1]!.session.getSnapshot().expiresAt).toBe(tabs[0]!.session.getSnapshot().expiresAt);
  });
});

describe('idle sign-out', () => {
  test('signs out everywhere after idleTimeoutMinutes without activity; activity in another tab counts', async () => {
    const bus = fakeTabBus();
    const { locks } = fakeTabLocks();
    const here = new EventTarget();
    const elsewhere = new EventTarget();
    const open = (target: EventTarget) =>
      sessionWithFake(undefined, { tabChannel: bus.factory, tabLocks: locks, activityTarget: target as never }, { idleTimeoutMinutes: 2 });
    const tab = open(here);
    await jest.advanceTimersByTimeAsync(0);
    await tab.session.ready();
    const other = open(elsewhere);
    await jest.advanceTimersByTimeAsync(0);
    await other.session.ready();
    expect(tab.session.getSnapshot().expiresAt).toBe(Date.now() + 120_000);

    await jest.advanceTimersByTimeAsync(90_000);
    elsewhere.dispatchEvent(new Event('keydown'));
    expect(tab.session.getSnapshot().expiresAt).toBe(Date.now() + 120_000);
    await jest.advanceTimersByTimeAsync(100_000);
    expect(tab.session.getSnapshot().status).toBe('authenticated');

    await jest.advanceTimersByTimeAsync(30_000);
    await flush();
    expect(tab.session.getSnapshot().signOutReason === 'idle' || other.session.getSnapshot().signOutReason === 'idle').toBe(true);
    expect(tab.session.getSnapshot().status).toBe('anonymous');
    expect(other.session.getSnapshot().status).toBe('anonymous');
    expect([...tab.instances, ...other.instances].flatMap((kc) => kc.logoutCalls)).not.toHaveLength(0); // ended at the provider
  });
});

test('no event ever carries a token', async () => {
  const frames = new EventTarget();
  const { session, kc } = sessionWithFake(
    (k) => (k.refreshLifespanSeconds = 120),
    { window: frames as unknown as Window, development: false },
    { sessionWatchSeconds: 0 },
  );
  const events: SessionEvent[] = [];
  session.on((e) => events.push(e));
  await session.ready();
  frames.dispatchEvent(new MessageEvent('message', { origin: 'http://localhost:8080', data: 'unsupported' })); // no frame
  const secrets = [kc().token, kc().refreshToken];
  await session.getToken({ forceRefresh: true });
  secrets.push(kc().token, kc().refreshToken);
  kc().refreshOutcome = 'network-error';
  await session.getToken({ forceRefresh: true }).catch(() => undefined);
  await jest.advanceTimersByTimeAsync(120_000);
  await flush();

  expect(events.map((e) => e.type)).toEqual([
    'signedIn',
    'sessionWatchChanged',
    'tokenRefreshed',
    'refreshFailed',
    'sessionExpiring',
    'signedOut',
  ]);
  const text = JSON.stringify(events);
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/eyJ/);
});
