// Security round: authFetch checks the URL it sends to, whatever base the page declares.
import { sessionWithFake } from './test-support/sessions';

type Call = { url: string; authorization: string | null };

/** A fetch that resolves its input the way the browser's does: against `document.baseURI`. */
function browserLikeFetch() {
  const calls: Call[] = [];
  const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: new URL(String(input), document.baseURI).href, authorization: new Headers(init?.headers).get('authorization') });
    return { status: 200 } as Response;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

afterEach(() => {
  document.head.querySelectorAll('base').forEach((base) => base.remove());
  jest.restoreAllMocks();
});

test('an injected <base href> to another origin does not receive the token for a relative URL', async () => {
  const base = document.createElement('base');
  base.href = 'http://other.example/';
  document.head.append(base);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { fetch, calls } = browserLikeFetch();
  const { session } = sessionWithFake(undefined, { fetch, development: true });
  await session.ready();

  await session.authFetch('api/reports');

  expect(calls).toEqual([{ url: 'http://other.example/api/reports', authorization: null }]);
});

test('a relative URL on the page origin goes out resolved, with the token', async () => {
  const { fetch, calls } = browserLikeFetch();
  const { session, kc } = sessionWithFake(undefined, { fetch });
  await session.ready();

  await session.authFetch('api/reports');

  expect(calls).toEqual([{ url: 'http://localhost/api/reports', authorization: `Bearer ${kc().token}` }]);
});
