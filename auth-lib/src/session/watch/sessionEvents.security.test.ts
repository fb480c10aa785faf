import { EVENTS_URL, fakeService, frame, READY } from '../../test-support/fakeSessionEvents';
import { MAX_FRAME_CHARS, RECONNECT_FIRST_MS, SessionEvents, type SessionEventsHost } from './sessionEvents';

// What a hostile or broken service (or a proxy in front of it) sends the leading tab: it may make the tab reconnect,
// never end the session or make the tab hold without bound.
beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

function leadingTab(service: ReturnType<typeof fakeService>) {
  const ended = jest.fn();
  const host: SessionEventsHost = {
    url: EVENTS_URL,
    isLeader: () => true,
    isSignedIn: () => true,
    sessionId: () => 'sid-1',
    subject: () => 'user-1',
    token: async () => 'token',
    authorization: async () => ({ Authorization: 'DPoP token', DPoP: 'proof' }),
    fetch: service.fetch as unknown as typeof fetch,
    ended,
    random: () => 0.5,
  };
  return { events: new SessionEvents(host), ended };
}

test('an endless frame (no blank line ever) is dropped past MAX_FRAME_CHARS, not buffered; the tab reconnects with backoff', async () => {
  const service = fakeService();
  const { events, ended } = leadingTab(service);
  events.sync();
  await jest.advanceTimersByTimeAsync(0);
  service.last().stream!.push(READY);
  const chunk = `data: ${'x'.repeat(8 * 1024)}\n`;
  for (let sent = 0; sent <= MAX_FRAME_CHARS; sent += chunk.length) service.last().stream!.push(chunk);
  // dropped: a new stream after the first backoff wait (a tab still buffering would never ask again)
  await jest.advanceTimersByTimeAsync(RECONNECT_FIRST_MS);
  expect(service.requests).toHaveLength(2);
  // the new stream works as any: a frame of the size the service sends is read
  service.last().stream!.push(frame('session-ended', { sid: 'sid-1', sub: 'user-1', reason: 'backchannel-logout', iat: 1 }));
  await jest.advanceTimersByTimeAsync(0);
  expect(ended).toHaveBeenCalledTimes(1);
  events.close();
});

test('a session-ended for a session id such as __proto__ or constructor ends nothing', async () => {
  const service = fakeService();
  const { events, ended } = leadingTab(service);
  events.sync();
  await jest.advanceTimersByTimeAsync(0);
  for (const sid of ['__proto__', 'constructor', 'toString']) {
    service.last().stream!.push(frame('session-ended', { sid, sub: 'user-1', reason: 'backchannel-logout', iat: 1 }));
  }
  await jest.advanceTimersByTimeAsync(0);
  expect(ended).not.toHaveBeenCalled();
  expect(events.connected).toBe(true);
  events.close();
});
