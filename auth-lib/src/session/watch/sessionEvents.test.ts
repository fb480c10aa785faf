import { EVENTS_URL as URL_BASE, fakeService, frame, READY } from '../../test-support/fakeSessionEvents';
import { RECONNECT_FIRST_MS, RECONNECT_MAX_MS, SessionEvents, STABLE_STREAM_MS, type SessionEventsHost } from './sessionEvents';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzaWQiOiJzaWQtMSJ9.signature';

function tab(service: ReturnType<typeof fakeService>, overrides: Partial<SessionEventsHost> = {}) {
  const state = { leader: true, signedIn: true, sid: 'sid-1' as string | null, sub: 'user-1' };
  const ended = jest.fn(() => {
    state.signedIn = false;
  });
  const host: SessionEventsHost = {
    url: URL_BASE,
    isLeader: () => state.leader,
    isSignedIn: () => state.signedIn,
    sessionId: () => (state.signedIn ? state.sid : null),
    subject: () => (state.signedIn ? state.sub : null),
    token: async () => TOKEN,
    authorization: async (token, method, url) => ({ Authorization: `DPoP ${token}`, DPoP: `proof:${method}:${url}` }),
    fetch: service.fetch as unknown as typeof fetch,
    ended,
    random: () => 0.5, // no jitter unless a test says otherwise
    ...overrides,
  };
  const events = new SessionEvents(host);
  return { events, state, ended, host };
}

describe('who subscribes', () => {
  test('the leading, signed-in tab opens one stream; a tab that does not lead, or is signed out, opens none', async () => {
    const service = fakeService();
    const follower = tab(service);
    follower.state.leader = false;
    follower.events.sync();
    const signedOut = tab(service);
    signedOut.state.signedIn = false;
    signedOut.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    expect(service.requests).toHaveLength(0);

    const leader = tab(service);
    leader.events.sync();
    leader.events.sync(); // again (every snapshot change syncs): still one stream
    await jest.advanceTimersByTimeAsync(0);
    expect(service.requests).toHaveLength(1);
    expect(leader.events.connected).toBe(true);
  });

  test('GET {url}/events with the access token and a DPoP proof in headers: no token in the URL, no cookie', async () => {
    const service = fakeService();
    tab(service).events.sync();
    await jest.advanceTimersByTimeAsync(0);

    const { url, init } = service.last();
    expect(url).toBe(`${URL_BASE}/events`);
    expect(url).not.toContain(TOKEN);
    expect(new URL(url).search).toBe('');
    expect(init).toMatchObject({ method: 'GET', credentials: 'omit', cache: 'no-store' });
    expect(init.headers).toEqual({
      Accept: 'text/event-stream',
      Authorization: `DPoP ${TOKEN}`,
      DPoP: `proof:GET:${URL_BASE}/events`,
    });
  });

  test('losing the lead closes the stream, and the new leading tab opens its own', async () => {
    const service = fakeService();
    const first = tab(service);
    first.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    expect(service.requests[0]!.aborted()).toBe(false);

    first.state.leader = false;
    first.events.sync();
    await jest.advanceTimersByTimeAsync(RECONNECT_MAX_MS * 2);
    expect(service.requests[0]!.aborted()).toBe(true);
    expect(first.events.connected).toBe(false);
    expect(service.requests).toHaveLength(1); // no reconnect from a tab that does not lead

    const second = tab(service);
    second.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    expect(service.requests).toHaveLength(2);
  });

  test('signing out closes the stream', async () => {
    const service = fakeService();
    const t = tab(service);
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    t.state.signedIn = false;
    t.events.sync();
    expect(service.last().aborted()).toBe(true);
    await jest.advanceTimersByTimeAsync(RECONNECT_MAX_MS * 2);
    expect(service.requests).toHaveLength(1);
  });
});

describe('what the service says', () => {
  test("'session-ended' for this session ends it (once) and the stream is not opened again for it", async () => {
    const service = fakeService();
    const t = tab(service);
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    service.last().stream!.push(READY);
    service.last().stream!.push(': heartbeat\n\n');
    await jest.advanceTimersByTimeAsync(0);
    expect(t.ended).not.toHaveBeenCalled();

    // split across chunks, with CRLF line ends: still one frame
    service.last().stream!.push('id: jti-1\r\nevent: session-ended\r\n');
    service.last().stream!.push(`data: ${JSON.stringify({ sid: 'sid-1', sub: 'user-1', reason: 'backchannel-logout', iat: 1 })}\r\n\r\n`);
    await jest.advanceTimersByTimeAsync(0);

    expect(t.ended).toHaveBeenCalledTimes(1);
    t.state.signedIn = true; // even were the tab still signed in with that session: no new stream for it
    t.events.sync();
    await jest.advanceTimersByTimeAsync(RECONNECT_MAX_MS * 2);
    expect(service.requests).toHaveLength(1);
  });

  test("'session-ended' without a sid ends the session of its sub", async () => {
    const service = fakeService();
    const t = tab(service);
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    service.last().stream!.push(frame('session-ended', { sid: null, sub: 'user-1', reason: 'backchannel-logout', iat: 1 }));
    await jest.advanceTimersByTimeAsync(0);
    expect(t.ended).toHaveBeenCalledTimes(1);
  });

  test("'session-ended' for another session (or malformed) changes nothing: the session and the stream go on", async () => {
    const service = fakeService();
    const t = tab(service);
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    const stream = service.last().stream!;
    stream.push(READY);
    stream.push(frame('session-ended', { sid: 'sid-2', sub: 'user-1', reason: 'backchannel-logout', iat: 1 }));
    stream.push(frame('session-ended', { sid: null, sub: 'user-2', reason: 'backchannel-logout', iat: 1 }));
    stream.push('event: session-ended\ndata: not json\n\n');
    await jest.advanceTimersByTimeAsync(0);

    expect(t.ended).not.toHaveBeenCalled();
    expect(t.state.signedIn).toBe(true);
    expect(stream.ended).toBe(false);
    expect(t.events.connected).toBe(true);
  });

  test("'renew' (the stream's maximum age) reconnects at once with the current token and a new proof", async () => {
    const service = fakeService();
    let token = 0;
    const t = tab(service, { token: async () => `token-${++token}` });
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    service.last().stream!.push(READY);
    await jest.advanceTimersByTimeAsync(5 * 60_000);
    service.last().stream!.push(frame('renew', { maxAgeSeconds: 3600 }));
    await jest.advanceTimersByTimeAsync(0);

    expect(service.requests).toHaveLength(2);
    expect(service.last().init.headers).toMatchObject({ Authorization: 'DPoP token-2' });
  });
});

describe('the service down, refusing or restarting: backoff, and the session goes on', () => {
  test('connection failures retry after 1 s doubling to at most 60 s; nothing ends', async () => {
    const service = fakeService(['network-error']);
    const t = tab(service);
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    const times: number[] = [];
    const start = Date.now();
    for (let i = 0; i < 9; i += 1) {
      const before = service.requests.length;
      // to the next timer, not in small steps: 243 s of waits in 100 ms steps took seconds of real time
      while (service.requests.length === before) await jest.advanceTimersToNextTimerAsync();
      times.push(Date.now() - start);
    }
    const gaps = times.map((at, i) => Math.round((at - (times[i - 1] ?? 0)) / 1000));
    expect(gaps).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(t.ended).not.toHaveBeenCalled();
    expect(t.state.signedIn).toBe(true);
  });

  test('the wait has ±20 % jitter', async () => {
    for (const [random, wait] of [
      [0, 0.8 * RECONNECT_FIRST_MS],
      [0.999_999, 1.2 * RECONNECT_FIRST_MS],
    ] as const) {
      const service = fakeService(['network-error']);
      const t = tab(service, { random: () => random });
      t.events.sync();
      await jest.advanceTimersByTimeAsync(0);
      await jest.advanceTimersByTimeAsync(wait - 10);
      expect(service.requests).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(20);
      expect(service.requests).toHaveLength(2);
      t.events.close();
    }
  });

  test("a stream that ends without a last event, 'unavailable' or 'closing' reconnects with backoff; one open 60 s resets it", async () => {
    const service = fakeService();
    const t = tab(service);
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    service.last().stream!.end();
    await jest.advanceTimersByTimeAsync(RECONNECT_FIRST_MS);
    expect(service.requests).toHaveLength(2);
    service.last().stream!.push(frame('unavailable', { reason: 'database' }));
    await jest.advanceTimersByTimeAsync(2 * RECONNECT_FIRST_MS - 10);
    expect(service.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(20);
    expect(service.requests).toHaveLength(3);

    await jest.advanceTimersByTimeAsync(STABLE_STREAM_MS);
    service.last().stream!.push(frame('closing', {}));
    await jest.advanceTimersByTimeAsync(RECONNECT_FIRST_MS);
    expect(service.requests).toHaveLength(4); // back to 1 s
    expect(t.ended).not.toHaveBeenCalled();
  });

  test('503 waits Retry-After; 500 backs off', async () => {
    const service = fakeService([{ status: 503, headers: { 'Retry-After': '5' } }, { status: 500 }, { status: 200 }]);
    const t = tab(service);
    t.events.sync();
    await jest.advanceTimersByTimeAsync(4_990);
    expect(service.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(20);
    expect(service.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(RECONNECT_FIRST_MS);
    expect(service.requests).toHaveLength(3);
    expect(t.events.connected).toBe(true);
  });

  test('401: once more at once with a fresh proof; 401 again stops (the checks alone); 403 stops', async () => {
    const service = fakeService([{ status: 401 }]);
    const t = tab(service);
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    await jest.advanceTimersByTimeAsync(0);
    expect(service.requests).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(RECONNECT_MAX_MS * 5);
    expect(service.requests).toHaveLength(2);
    expect(t.events.connected).toBe(false);
    expect(t.ended).not.toHaveBeenCalled();

    const forbidden = fakeService([{ status: 403 }]);
    const other = tab(forbidden);
    other.events.sync();
    await jest.advanceTimersByTimeAsync(RECONNECT_MAX_MS * 5);
    expect(forbidden.requests).toHaveLength(1);
  });

  test('a token that cannot be had (provider unreachable) backs off too', async () => {
    const service = fakeService();
    let fail = true;
    const t = tab(service, { token: () => (fail ? Promise.reject(new Error('idp-unreachable')) : Promise.resolve(TOKEN)) });
    t.events.sync();
    await jest.advanceTimersByTimeAsync(0);
    expect(service.requests).toHaveLength(0);
    fail = false;
    await jest.advanceTimersByTimeAsync(RECONNECT_FIRST_MS);
    expect(service.requests).toHaveLength(1);
  });
});
