// decisions/0108: the leading tab serves API tokens only for the APIs the registry names, and a tab takes
// an API token from the channel only when it is for the audience asked for, unexpired by this tab's own clock.
import type { SessionEvent } from '../../types';
import type { FakeKeycloak } from '../../test-support/fakeKeycloak';
import { signed } from '../../test-support/fakeTokens';
import { browser, flush } from '../../test-support/sessions';
import { channelName } from '../tabs/tabChannel';
import { decodeClaims } from '../tokens/tokenSet';

const PROFILE_API = { url: 'http://localhost:3010/profile', audience: 'profile-api', scope: 'profile-api' };
const REPORTS_API = { url: 'http://localhost:3010/reports', audience: 'reports-api', scope: 'reports-api' };
const ADMIN_API = { url: 'http://localhost:3010/admin', audience: 'admin-api', scope: 'admin-api' };
/** What config.json's registry names (the shell passes it as `apis`). */
const REGISTRY = { apis: [PROFILE_API, REPORTS_API] };
const TOKEN_ENDPOINT = 'http://localhost:8080/realms/gatehouse/protocol/openid-connect/token';

/** The token endpoint: a downscoped refresh answers a token of the session whose `aud` is the scope's API. */
function provider(kc: () => FakeKeycloak) {
  const scopes: string[] = [];
  const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) !== TOKEN_ENDPOINT) return { status: 200 } as Response;
    const scope = new URLSearchParams(String(init?.body)).get('scope') ?? '';
    scopes.push(scope);
    const session = kc().tokenParsed ?? {};
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: session.iss, azp: session.azp, sub: session.sub, sid: session.sid, aud: scope, iat: now, exp: now + 300 };
    return { ok: true, status: 200, json: async () => ({ access_token: signed(claims) }) } as Response;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, scopes };
}

/** A leading tab (with the token endpoint) and a seeded follower, both of a shell whose registry names REGISTRY. */
async function twoTabs() {
  const b = browser();
  let leaderKc: () => FakeKeycloak = () => leader.kc();
  const idp = provider(() => leaderKc());
  const leader = await b.open(undefined, { fetch: idp.fetch }, REGISTRY);
  leaderKc = leader.kc;
  const follower = await b.open(undefined, {}, REGISTRY);
  const events: SessionEvent[] = [];
  follower.session.on((event) => events.push(event));
  const post = (message: object) => b.bus.factory(channelName('gatehouse', 'gatehouse-shell')).postMessage(message);
  const heard = () => b.bus.messages as { type: string; scope?: string; token?: string }[];
  return { b, leader, follower, idp, post, heard, events };
}

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

test('an api-token-request for an API the registry does not name is refused by the leading tab: no downscoped refresh, no token posted', async () => {
  const { idp, post, heard } = await twoTabs();

  post({ type: 'gatehouse-auth:api-token-request', scope: ADMIN_API.scope, audience: ADMIN_API.audience, had: null });
  await jest.advanceTimersByTimeAsync(100);

  expect(idp.scopes).toEqual([]);
  expect(heard().filter((message) => message.type === 'gatehouse-auth:api-token')).toEqual([]);
  expect(heard().filter((message) => message.type === 'gatehouse-auth:api-token-failed')).toEqual([
    expect.objectContaining({ scope: ADMIN_API.scope, reason: expect.stringContaining('names no API with scope "admin-api"') }),
  ]);
});

test("a request naming a registry API's scope with another audience is served for the registry's audience only", async () => {
  const { idp, post, heard } = await twoTabs();

  post({ type: 'gatehouse-auth:api-token-request', scope: PROFILE_API.scope, audience: ADMIN_API.audience, had: null });
  await jest.advanceTimersByTimeAsync(100);

  expect(idp.scopes).toEqual([]);
  expect(heard().filter((message) => message.type === 'gatehouse-auth:api-token')).toEqual([]);
});

test("another API's token posted under this API's scope does not answer this API's request", async () => {
  const { leader, follower, post, events } = await twoTabs();
  const reports = await leader.session.forApi(REPORTS_API).getToken(); // a real, provider-signed token of this session
  expect(decodeClaims(reports)?.aud).toBe('reports-api');

  const asked = follower.session.forApi(PROFILE_API).getToken();
  post({ type: 'gatehouse-auth:api-token', scope: PROFILE_API.scope, token: reports, timeSkew: 0 });
  const token = await asked;

  expect(token).not.toBe(reports);
  expect(decodeClaims(token)?.aud).toBe('profile-api');
  expect(events).toContainEqual({ type: 'tabMessageRefused', reason: expect.stringContaining('reports-api') });
});

test("an expired API token is not taken, whatever timeSkew the message claims: this tab's own clock decides", async () => {
  const { leader, follower, post } = await twoTabs();
  const claims = decodeClaims(leader.kc().token) ?? {};
  const now = Math.floor(Date.now() / 1000);
  const expired = signed({ ...claims, aud: 'profile-api', iat: now - 7200, exp: now - 3600 });

  const asked = follower.session.forApi(PROFILE_API).getToken();
  post({ type: 'gatehouse-auth:api-token', scope: PROFILE_API.scope, token: expired, timeSkew: 1e9 });
  const token = await asked;

  expect(token).not.toBe(expired);
  expect(decodeClaims(token)?.exp).toBeGreaterThan(now);
  await flush();
});
