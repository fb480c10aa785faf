import { sessionWithFake } from './test-support/sessions';

type Call = { url: string; authorization: string | null };

function fakeFetch(statuses: number[]) {
  const calls: Call[] = [];
  const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
    return { status: statuses.shift() ?? 200 } as Response;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

async function signedIn(statuses: number[], extra: { trustedOrigins?: string[]; development?: boolean } = {}) {
  const { fetch, calls } = fakeFetch(statuses);
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const setup = sessionWithFake(
    undefined,
    { fetch, development: extra.development ?? true },
    extra.trustedOrigins ? { trustedOrigins: extra.trustedOrigins } : {},
  );
  await setup.session.ready();
  return { ...setup, calls, warn };
}

afterEach(() => jest.restoreAllMocks());

test('adds the bearer token for the page origin', async () => {
  const { session, calls, kc } = await signedIn([200]);
  const response = await session.authFetch('/api/reports', { headers: { accept: 'application/json' } });
  expect(response.status).toBe(200);
  expect(calls).toEqual([{ url: 'http://localhost/api/reports', authorization: `Bearer ${kc().token}` }]);
});

test('on 401 refreshes once (forced) and retries once', async () => {
  const { session, calls, kc } = await signedIn([401, 200]);
  const first = kc().token;

  const response = await session.authFetch('http://localhost/api/me');

  expect(response.status).toBe(200);
  expect(kc().updateTokenCalls).toEqual([-1]);
  expect(calls.map((c) => c.authorization)).toEqual([`Bearer ${first}`, `Bearer ${kc().token}`]);
  expect(kc().token).not.toBe(first);
});

test('a second 401 is returned to the caller, not retried again', async () => {
  const { session, calls } = await signedIn([401, 401, 200]);
  expect((await session.authFetch('/api/me')).status).toBe(401);
  expect(calls).toHaveLength(2);
});

test('sends the token to trusted origins', async () => {
  const { session, calls, warn } = await signedIn([200], { trustedOrigins: ['https://api.example.com'] });
  await session.authFetch('https://api.example.com/v1/orders');
  expect(calls[0]?.authorization).toMatch(/^Bearer /);
  expect(warn).not.toHaveBeenCalled();
});

test('a request elsewhere goes out without the token, with a development warning naming the origin', async () => {
  const { session, calls, warn, kc } = await signedIn([200, 200]);
  await session.authFetch('https://tracker.example.net/pixel');
  await session.authFetch('https://tracker.example.net/other');

  expect(calls.map((c) => c.authorization)).toEqual([null, null]);
  expect(warn).toHaveBeenCalledTimes(1);
  const message = String(warn.mock.calls[0]?.[0]);
  expect(message).toMatch(/https:\/\/tracker\.example\.net/);
  expect(message).toMatch(/trustedOrigins/);
  expect(message).not.toContain(kc().token);
});

test('no warning in production builds', async () => {
  const { session, warn } = await signedIn([200], { development: false });
  await session.authFetch('https://tracker.example.net/pixel');
  expect(warn).not.toHaveBeenCalled();
});

test('a look-alike origin is not trusted', async () => {
  const { session, calls } = await signedIn([200, 200], { trustedOrigins: ['https://api.example.com'] });
  await session.authFetch('https://api.example.com.evil.net/x');
  await session.authFetch('http://api.example.com/x');
  expect(calls.map((c) => c.authorization)).toEqual([null, null]);
});

test('when no one is signed in it fails with not-authenticated', async () => {
  const { fetch } = fakeFetch([200]);
  const { session } = sessionWithFake((k) => (k.initOutcome = 'anonymous'), { fetch });
  await session.ready();
  await expect(session.authFetch('/api/me')).rejects.toMatchObject({ code: 'not-authenticated' });
});
