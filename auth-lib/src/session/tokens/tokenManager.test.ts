import type { SessionEvent } from '../../types';
import { flush, sessionWithFake } from '../../test-support/sessions';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

async function signedIn(configure: Parameters<typeof sessionWithFake>[0] = () => undefined) {
  // without the provider watch (sessionWatchSeconds: 0), whose check would refresh an expired token on its own timer
  const setup = sessionWithFake(
    configure,
    { backoff: { initialDelayMs: 1000, maxDelayMs: 4000, maxAttempts: 3 } },
    { sessionWatchSeconds: 0 },
  );
  await setup.session.ready();
  return setup;
}

describe('getToken', () => {
  test('returns the current token without a request while it has at least 5 s left', async () => {
    const { session, kc } = await signedIn();
    const token = await session.getToken();
    expect(token).toBe(kc().token);
    expect(kc().updateTokenCalls).toEqual([]);
  });

  test('50 concurrent callers near expiry cause one refresh request and all get the new token', async () => {
    const { session, kc } = await signedIn();
    const before = kc().token;
    jest.setSystemTime(Date.now() + 56_000); // 4 s left

    const tokens = await Promise.all(Array.from({ length: 50 }, () => session.getToken()));

    expect(kc().updateTokenCalls).toEqual([5]);
    expect(kc().networkRefreshes).toBe(1);
    expect(new Set(tokens)).toEqual(new Set([kc().token]));
    expect(tokens[0]).not.toBe(before);
    expect(session.getSnapshot().tokenExpiresAt).toBe(Date.now() + 60_000);
  });

  test('forceRefresh refreshes a token that is still valid', async () => {
    const { session, kc } = await signedIn();
    const before = kc().token;
    expect(await session.getToken({ forceRefresh: true })).not.toBe(before);
    expect(kc().updateTokenCalls).toEqual([-1]);
  });
});

describe('a refresh that fails on the network', () => {
  test('keeps the current token while it is still valid and retries with backoff', async () => {
    const { session, kc } = await signedIn((k) => (k.refreshOutcome = 'network-error'));
    const current = kc().token;
    jest.setSystemTime(Date.now() + 57_000); // 3 s left: refresh wanted, token still valid

    expect(await session.getToken()).toBe(current);
    expect(session.getSnapshot().status).toBe('authenticated');
    expect(kc().networkRefreshes).toBe(1);

    kc().refreshOutcome = 'ok';
    await jest.advanceTimersByTimeAsync(1000);
    await flush();

    expect(kc().networkRefreshes).toBe(2);
    expect(kc().token).not.toBe(current);
    expect(await session.getToken()).toBe(kc().token);
  });

  test('background retries back off and stop after the configured number', async () => {
    const { session, kc } = await signedIn((k) => (k.refreshOutcome = 'network-error'));
    jest.setSystemTime(Date.now() + 57_000);
    await session.getToken();
    expect(kc().networkRefreshes).toBe(1);

    await jest.advanceTimersByTimeAsync(999);
    expect(kc().networkRefreshes).toBe(1);
    await jest.advanceTimersByTimeAsync(1); // +1 s
    expect(kc().networkRefreshes).toBe(2);
    await jest.advanceTimersByTimeAsync(2000); // +2 s
    expect(kc().networkRefreshes).toBe(3);
    await jest.advanceTimersByTimeAsync(4000); // +4 s (max 3 attempts reached)
    expect(kc().networkRefreshes).toBe(4);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(kc().networkRefreshes).toBe(4);
  });

  test('once the token has expired, getToken fails with idp-unreachable but the session stays', async () => {
    const { session } = await signedIn((k) => (k.refreshOutcome = 'network-error'));
    jest.setSystemTime(Date.now() + 61_000);

    await expect(session.getToken()).rejects.toMatchObject({ code: 'idp-unreachable' });
    expect(session.getSnapshot().status).toBe('authenticated');
  });
});

describe('a refresh the provider refuses (HTTP 400)', () => {
  test('ends the session cleanly with reason refresh-refused', async () => {
    const { session, kc } = await signedIn((k) => (k.refreshOutcome = 'refused'));
    const events: SessionEvent[] = [];
    session.on((e) => events.push(e));
    jest.setSystemTime(Date.now() + 57_000);

    await expect(session.getToken()).rejects.toMatchObject({ code: 'not-authenticated' });
    await flush();

    expect(session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'refresh-refused', user: null });
    expect(events).toEqual([
      { type: 'refreshFailed', reason: 'refused' },
      { type: 'signedOut', reason: 'refresh-refused' },
    ]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(kc().networkRefreshes).toBe(1); // no retries after a refusal
  });
});

describe('bounded waits', () => {
  test('an init that never answers becomes error idp-unreachable after config.timeout', async () => {
    const { session } = sessionWithFake((k) => (k.initOutcome = 'hang'), {}, { timeout: 3000 });
    await jest.advanceTimersByTimeAsync(2999);
    expect(session.getSnapshot().status).toBe('loading');
    await jest.advanceTimersByTimeAsync(1);

    const { status, error } = session.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('idp-unreachable');
    expect(error?.message).toBe(
      'The identity provider at http://localhost:8080 did not answer within 3000 ms. Check that it runs and that the URL in config.json is right; session.retry() tries again.',
    );
  });

  test('the default bound is 10000 ms', async () => {
    const { session } = sessionWithFake((k) => (k.initOutcome = 'hang'));
    await jest.advanceTimersByTimeAsync(9999);
    expect(session.getSnapshot().status).toBe('loading');
    await jest.advanceTimersByTimeAsync(1);
    expect(session.getSnapshot().status).toBe('error');
  });

  test('retry() builds a fresh keycloak-js instance instead of calling init twice', async () => {
    let first = true;
    const { session, instances } = sessionWithFake((k) => {
      if (first) k.initOutcome = 'hang';
      first = false;
    });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(session.getSnapshot().status).toBe('error');

    const snapshot = await session.retry();

    expect(snapshot.status).toBe('authenticated');
    expect(instances).toHaveLength(2);
    expect(instances.map((kc) => kc.initCalls.length)).toEqual([1, 1]);
    // the abandoned instance answering late changes nothing
    instances[0]?.pendingInit.resolve(false);
    await flush();
    expect(session.getSnapshot().status).toBe('authenticated');
  });

  test('retry() on a session that is not in error does nothing', async () => {
    const { session, instances } = await signedIn();
    expect((await session.retry()).status).toBe('authenticated');
    expect(instances).toHaveLength(1);
  });

  test('a refresh that never answers is bounded too and keeps a still-valid token', async () => {
    const { session, kc } = await signedIn((k) => (k.refreshOutcome = 'hang'));
    const current = kc().token;
    jest.setSystemTime(Date.now() + 50_000); // 10 s left; the forced refresh hangs
    const pending = session.getToken({ forceRefresh: true });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(await pending).toBe(current);
  });

  test('a refresh that never answers after expiry fails with idp-unreachable', async () => {
    const { session } = await signedIn((k) => (k.refreshOutcome = 'hang'));
    jest.setSystemTime(Date.now() + 58_000);
    const pending = session.getToken();
    const assertion = expect(pending).rejects.toMatchObject({ code: 'idp-unreachable' });
    await jest.advanceTimersByTimeAsync(10_000);
    await assertion;
  });
});
