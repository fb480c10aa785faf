// A token per remote API (decisions/0054): a downscoped refresh per API, one at a time across tabs.
import type { FakeKeycloak } from '../../test-support/fakeKeycloak';
import { jwt } from '../../test-support/fakeTokens';
import { browser, flush, sessionWithFake } from '../../test-support/sessions';
import { proofClaims } from '../../test-support/fakeDpop';
import { decodeClaims } from '../tokens/tokenSet';

const PROFILE_API = { url: 'http://localhost:3010/profile', audience: 'profile-api', scope: 'profile-api' };
const TOKEN_ENDPOINT = 'http://localhost:8080/realms/gatehouse/protocol/openid-connect/token';

interface ProviderCall {
  readonly url: string;
  readonly form: URLSearchParams;
  readonly dpop: string | null;
}

/**
 * The token endpoint at the edge of the unit test: a refresh with `scope` answers an access token of the
 * session (same sub, sid, iss, azp) whose `aud` is what the scope's audience mapper gives (`audiences`).
 */
function provider(
  kc: () => FakeKeycloak,
  audiences: Record<string, string | string[]> = { 'profile-api': 'profile-api' },
  /** answer as a provider that binds tokens to the proof's key (DPoP): `cnf.jkt` in both tokens */
  bind = false,
) {
  const calls: ProviderCall[] = [];
  const apiCalls: { url: string; authorization: string | null; dpop: string | null }[] = [];
  let issued = 0;
  const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url !== TOKEN_ENDPOINT) {
      apiCalls.push({ url, authorization: new Headers(init?.headers).get('authorization'), dpop: new Headers(init?.headers).get('dpop') });
      return { status: 200 } as Response;
    }
    const form = new URLSearchParams(String(init?.body));
    calls.push({ url, form, dpop: new Headers(init?.headers).get('dpop') });
    const scope = form.get('scope') ?? '';
    if (!(scope in audiences)) {
      return {
        ok: false,
        status: 400,
        json: async () => ({ error: 'invalid_scope', error_description: `Invalid scopes: ${scope}` }),
      } as Response;
    }
    const session = kc().tokenParsed ?? {};
    const now = Math.floor(Date.now() / 1000);
    issued += 1;
    const claims = {
      iss: session.iss,
      azp: session.azp,
      sub: session.sub,
      sid: session.sid,
      aud: audiences[scope],
      scope,
      iat: now,
      exp: now + 300,
      ...(bind ? { cnf: { jkt: 'the-proof-key' } } : {}),
    };
    const refreshClaims = { typ: 'Refresh', sid: session.sid, exp: now + 1800, ...(bind ? { cnf: { jkt: 'the-proof-key' } } : {}) };
    const answer = {
      access_token: jwt(claims, `sig-api-${issued}`),
      refresh_token: jwt(refreshClaims, `rotated-${issued}`),
      token_type: bind ? 'DPoP' : 'Bearer',
    };
    return { ok: true, status: 200, json: async () => answer } as Response;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls, apiCalls };
}

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

test("a view's token comes from one refresh with the API's scope and has that API alone as its audience; it is cached", async () => {
  let kc: () => FakeKeycloak = () => {
    throw new Error('not yet');
  };
  const idp = provider(() => kc());
  const setup = sessionWithFake(undefined, { fetch: idp.fetch });
  kc = setup.kc;
  await setup.session.ready();
  const refreshToken = setup.kc().refreshToken;
  const view = setup.session.forApi(PROFILE_API);

  const token = await view.getToken();
  const again = await view.getToken();

  expect(idp.calls).toHaveLength(1);
  expect(Object.fromEntries(idp.calls[0]!.form)).toEqual({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: 'gatehouse-shell',
    scope: 'profile-api',
  });
  expect(decodeClaims(token)?.aud).toBe('profile-api');
  expect(again).toBe(token);
  expect(await setup.session.getToken()).toBe(setup.kc().token); // the page's own token is not the API's
  expect(await setup.session.getToken()).not.toBe(token);
  expect(view.api).toEqual(PROFILE_API);
  expect(setup.session.forApi({ ...PROFILE_API })).toBe(view);
});

test("the answer's refresh token replaces the spent one (a realm with refresh-token rotation)", async () => {
  let kc: () => FakeKeycloak = () => setup.kc();
  const idp = provider(() => kc());
  const setup = sessionWithFake(undefined, { fetch: idp.fetch });
  kc = setup.kc;
  await setup.session.ready();

  await setup.session.forApi(PROFILE_API).getToken();

  expect(setup.kc().refreshToken).toMatch(/\.rotated-1$/);
});

test("an API token's refresh moves the session's deadline in this tab and in the others (the provider's idle lifespan counts from it)", async () => {
  const b = browser();
  let leaderKc: () => FakeKeycloak = () => leader.kc();
  const idp = provider(() => leaderKc());
  const leader = await b.open(undefined, { fetch: idp.fetch });
  leaderKc = leader.kc;
  const follower = await b.open();
  await flush();
  const before = leader.session.getSnapshot().expiresAt;
  expect(follower.session.getSnapshot().expiresAt).toBe(before);

  await jest.advanceTimersByTimeAsync(10_000); // the session's own token (60 s) needs no refresh yet
  const ownRefreshes = leader.kc().networkRefreshes;
  await leader.session.forApi(PROFILE_API).getToken();
  await jest.advanceTimersByTimeAsync(0);
  expect(leader.kc().networkRefreshes).toBe(ownRefreshes);

  // the provider's answer: a refresh token that expires 1800 s after this refresh
  const renewed = (Math.floor(Date.now() / 1000) + 1800) * 1000;
  expect(leader.session.getSnapshot().expiresAt).toBe(renewed);
  expect(follower.session.getSnapshot().expiresAt).toBe(renewed);
  expect(before).not.toBe(renewed);
});

test("a token without the API's audience is refused with what to configure", async () => {
  let kc: () => FakeKeycloak = () => setup.kc();
  const idp = provider(() => kc(), { 'profile-api': ['account'] });
  const setup = sessionWithFake(undefined, { fetch: idp.fetch });
  kc = setup.kc;
  await setup.session.ready();

  await expect(setup.session.forApi(PROFILE_API).getToken()).rejects.toMatchObject({
    code: 'invalid-config',
    message: expect.stringContaining('Give the client scope "profile-api" an audience mapper for profile-api'),
  });
});

test('a scope the provider refuses fails with the scope named, and the session lives on', async () => {
  let kc: () => FakeKeycloak = () => setup.kc();
  const idp = provider(() => kc(), {});
  const setup = sessionWithFake(undefined, { fetch: idp.fetch });
  kc = setup.kc;
  await setup.session.ready();

  await expect(setup.session.forApi(PROFILE_API).getToken()).rejects.toMatchObject({
    message: expect.stringContaining('refused a token for scope "profile-api" (HTTP 400: invalid_scope: Invalid scopes: profile-api)'),
  });
  expect(setup.session.getSnapshot().status).toBe('authenticated');
});

test("a view's authFetch sends the API's token only to the API's address and what is under it", async () => {
  let kc: () => FakeKeycloak = () => setup.kc();
  const idp = provider(() => kc());
  const setup = sessionWithFake(undefined, { fetch: idp.fetch, development: false });
  kc = setup.kc;
  await setup.session.ready();
  const view = setup.session.forApi(PROFILE_API);
  const token = await view.getToken();

  await view.authFetch('http://localhost:3010/profile');
  await view.authFetch('http://localhost:3010/profile/me?x=1');
  await view.authFetch('http://localhost:3010/profiles');
  await view.authFetch('http://localhost:3010/admin');
  await view.authFetch('/api/reports'); // the page's own origin

  expect(idp.apiCalls.map((call) => [call.url, call.authorization])).toEqual([
    ['http://localhost:3010/profile', `Bearer ${token}`],
    ['http://localhost:3010/profile/me?x=1', `Bearer ${token}`],
    ['http://localhost:3010/profiles', null],
    ['http://localhost:3010/admin', null],
    ['/api/reports', null],
  ]);
});

test('a follower tab gets the API token from the leading tab, which holds the refresh token: one refresh for both', async () => {
  const b = browser();
  let leaderKc: () => FakeKeycloak = () => {
    throw new Error('not yet');
  };
  const leaderIdp = provider(() => leaderKc());
  const followerIdp = provider(() => leaderKc());
  const leader = await b.open(undefined, { fetch: leaderIdp.fetch }, { apis: [PROFILE_API] });
  leaderKc = leader.kc;
  const follower = await b.open(undefined, { fetch: followerIdp.fetch }, { apis: [PROFILE_API] });

  const fromFollower = await follower.session.forApi(PROFILE_API).getToken();
  await flush();
  const fromLeader = await leader.session.forApi(PROFILE_API).getToken();

  expect(leaderIdp.calls).toHaveLength(1);
  expect(followerIdp.calls).toHaveLength(0);
  expect(fromFollower).toBe(fromLeader);
  expect(follower.kc().refreshToken).toBeUndefined();
});

test('an API token of another session posted on the tab channel is not taken', async () => {
  const b = browser();
  let leaderKc: () => FakeKeycloak = () => leader.kc();
  const idp = provider(() => leaderKc());
  const leader = await b.open(undefined, { fetch: idp.fetch });
  leaderKc = leader.kc;
  const now = Math.floor(Date.now() / 1000);
  const claims = { ...leader.kc().tokenParsed, sub: 'id-mallory', aud: 'profile-api', iat: now, exp: now + 86_400 };
  const forged = jwt(claims, 'sig-mallory');

  b.bus
    .factory('gatehouse-auth:gatehouse:gatehouse-shell')
    .postMessage({ type: 'gatehouse-auth:api-token', scope: 'profile-api', token: forged, timeSkew: 0 });
  await jest.advanceTimersByTimeAsync(0);

  expect(await leader.session.forApi(PROFILE_API).getToken()).not.toBe(forged);
  expect(idp.calls).toHaveLength(1);
});

test("a second tab opened after the leading tab holds the API's token gets that token from the leader's cache at once", async () => {
  const b = browser();
  let leaderKc: () => FakeKeycloak = () => leader.kc();
  const idp = provider(() => leaderKc());
  const leader = await b.open(undefined, { fetch: idp.fetch }, { apis: [PROFILE_API] });
  leaderKc = leader.kc;
  const fromLeader = await leader.session.forApi(PROFILE_API).getToken(); // the first tab's "Your API" card
  const second = await b.open(undefined, {}, { apis: [PROFILE_API] });

  let answer: string | Error | null = null;
  second.session
    .forApi(PROFILE_API)
    .getToken()
    .then(
      (token) => (answer = token),
      (error: Error) => (answer = error),
    );
  await jest.advanceTimersByTimeAsync(100); // well within the 10 s the second tab waits for an answer

  expect(answer).toBe(fromLeader);
  expect(idp.calls).toHaveLength(1); // served from the cache: no second downscoped refresh
});

test("a downscoped refresh carries a DPoP proof for the token endpoint, and the API's bound token goes to the API as DPoP with a proof of it", async () => {
  let kc: () => FakeKeycloak = () => setup.kc();
  const idp = provider(() => kc(), undefined, true);
  const setup = sessionWithFake(undefined, { fetch: idp.fetch });
  kc = setup.kc;
  await setup.session.ready();
  const view = setup.session.forApi(PROFILE_API);

  const token = await view.getToken();
  await view.authFetch('http://localhost:3010/profile/me?x=1', { method: 'post' });

  expect(proofClaims(idp.calls[0]!.dpop)).toEqual({ htu: TOKEN_ENDPOINT, htm: 'POST', nonce: null, ath: null });
  expect(idp.apiCalls).toHaveLength(1);
  expect(idp.apiCalls[0]!.authorization).toBe(`DPoP ${token}`);
  expect(proofClaims(idp.apiCalls[0]!.dpop)).toEqual({ htu: 'http://localhost:3010/profile/me', htm: 'POST', nonce: null, ath: token });
});

test("a bound refresh token from a downscoped refresh does not replace the session's unbound one, which keycloak-js refreshes without a proof", async () => {
  let kc: () => FakeKeycloak = () => setup.kc();
  const idp = provider(() => kc(), undefined, true);
  const setup = sessionWithFake(undefined, { fetch: idp.fetch });
  kc = setup.kc;
  await setup.session.ready();
  const before = setup.kc().refreshToken;

  await setup.session.forApi(PROFILE_API).getToken();

  expect(setup.kc().refreshToken).toBe(before);
});

test('a bearer API token still goes as Bearer without a proof (a provider without DPoP)', async () => {
  let kc: () => FakeKeycloak = () => setup.kc();
  const idp = provider(() => kc());
  const setup = sessionWithFake(undefined, { fetch: idp.fetch });
  kc = setup.kc;
  await setup.session.ready();
  const view = setup.session.forApi(PROFILE_API);
  const token = await view.getToken();
  await view.authFetch('http://localhost:3010/profile');
  expect(idp.apiCalls[0]).toMatchObject({ authorization: `Bearer ${token}`, dpop: null });
});
