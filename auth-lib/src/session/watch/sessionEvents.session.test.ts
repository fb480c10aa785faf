import type { SessionConfig, SessionEvent } from '../../types';
import { EVENTS_URL as URL_BASE, fakeService, frame, READY } from '../../test-support/fakeSessionEvents';
import { proofClaims } from '../../test-support/fakeDpop';
import { browser } from '../../test-support/sessions';
import { RECONNECT_FIRST_MS, RECONNECT_MAX_MS } from './sessionEvents';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('in the session: the leading tab holds the stream; its end takes the session watch path to every tab', () => {
  const EVENTS = { sessionEvents: { url: URL_BASE } };

  /** `count` signed-in tabs of one browser whose fetch goes to `service` (the provider's calls are keycloak-js's). */
  async function tabs(count: number, service: ReturnType<typeof fakeService>, config: Partial<SessionConfig> = EVENTS) {
    const b = browser();
    const opened = [];
    for (let i = 0; i < count; i += 1) {
      const t = await b.open(undefined, { fetch: service.fetch as unknown as typeof fetch, development: false, window: null }, config);
      const events: SessionEvent[] = [];
      t.session.on((event) => events.push(event));
      opened.push({ ...t, events });
    }
    await jest.advanceTimersByTimeAsync(0);
    return { b, tabs: opened };
  }

  test('not configured: no request to any service, as today', async () => {
    const service = fakeService();
    const {
      tabs: [first],
    } = await tabs(2, service, {});
    await jest.advanceTimersByTimeAsync(60_000);
    expect(service.fetch).not.toHaveBeenCalled();
    expect(first!.session.getSnapshot().status).toBe('authenticated');
  });

  test('configured: one stream for the browser, from the leading tab, with the token in a header only', async () => {
    const service = fakeService();
    const { tabs: all } = await tabs(2, service);
    expect(all.every((t) => t.session.getSnapshot().status === 'authenticated')).toBe(true);
    expect(service.requests).toHaveLength(1);
    const token = all[0]!.kc().token!;
    expect(service.last().url).toBe(`${URL_BASE}/events`);
    expect(service.last().url).not.toContain(token);
    expect(service.last().init.headers).toMatchObject({ Accept: 'text/event-stream', Authorization: expect.stringContaining(token) });
  });

  test('the leading tab closes: the tab that takes the lead opens the stream at once', async () => {
    const service = fakeService();
    const { b } = await tabs(2, service);
    expect(service.requests).toHaveLength(1);
    b.locks.releaseHeld(); // the leading tab's page closed (its stream with it)
    await jest.advanceTimersByTimeAsync(0);
    expect(service.requests).toHaveLength(2);
  });

  test('a DPoP-bound token goes as Authorization: DPoP with a proof for GET {url}/events naming it (ath)', async () => {
    const service = fakeService();
    const { tabs: all } = await tabs(1, service);
    const kc = all[0]!.kc();
    const claims = Buffer.from(JSON.stringify({ ...kc.tokenParsed, cnf: { jkt: 'the-browser-key' } })).toString('base64url');
    const bound = `eyJhbGciOiJFUzI1NiJ9.${claims}.signature`;
    kc.token = bound;
    await jest.advanceTimersByTimeAsync(2 * RECONNECT_FIRST_MS);
    service.last().stream!.push(frame('renew', { maxAgeSeconds: 3600 })); // reconnect with the token the session holds now
    await jest.advanceTimersByTimeAsync(0);

    expect(service.requests).toHaveLength(2);
    const headers = service.last().init.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`DPoP ${bound}`);
    expect(proofClaims(headers.DPoP ?? null)).toEqual({ htu: `${URL_BASE}/events`, htm: 'GET', nonce: null, ath: bound });
    expect(service.last().url).not.toContain(bound);
  });

  test("'session-ended' for this session: the leading tab ends it as session-ended; the other confirms with the provider, then ends", async () => {
    const service = fakeService();
    const { b, tabs: all } = await tabs(2, service);
    b.provider.ended = true; // the provider ended the session (it posted the logout token)
    service.last().stream!.push(READY + frame('session-ended', { sid: 'sid-1', sub: null, reason: 'backchannel-logout', iat: 1 }));
    await jest.advanceTimersByTimeAsync(0);

    expect(all[0]!.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-ended' });
    await jest.advanceTimersByTimeAsync(1000);
    expect(all[1]!.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-ended' });
    expect(all[1]!.instances.reduce((sum, kc) => sum + kc.userInfoCalls, 0)).toBeGreaterThan(0); // proven, not taken on word
    expect(service.last().aborted() || service.last().stream!.ended).toBe(true);
    await jest.advanceTimersByTimeAsync(RECONNECT_MAX_MS * 2);
    expect(service.requests).toHaveLength(1);
  });

  test("another session's end changes nothing; the service down leaves the session signed in and retries", async () => {
    const service = fakeService();
    const { tabs: all } = await tabs(2, service);
    service.last().stream!.push(READY + frame('session-ended', { sid: 'sid-2', sub: null, reason: 'backchannel-logout', iat: 1 }));
    await jest.advanceTimersByTimeAsync(0);
    service.last().stream!.end(); // the service goes away
    await jest.advanceTimersByTimeAsync(10 * RECONNECT_FIRST_MS);

    expect(service.requests.length).toBeGreaterThan(1);
    for (const t of all) expect(t.session.getSnapshot()).toMatchObject({ status: 'authenticated', signOutReason: null });
    for (const t of all) expect(t.events.filter((event) => event.type === 'signedOut')).toEqual([]);
  });
});
