// decisions/0108: a tab message carries no authority of its own. Any same-origin script can post one, so a
// message is judged by this tab's own clock, signs no signed-out tab in, ends no session without the provider's word,
// and moves no deadline into the future.
import type { SessionEvent } from '../../types';
import type { FakeKeycloak } from '../../test-support/fakeKeycloak';
import { shellClaims, signed } from '../../test-support/fakeTokens';
import { browser, flush } from '../../test-support/sessions';
import { PROOF_RETRIES_MS } from '../watch/endProof';
import { channelName } from './tabChannel';
import { decodeClaims } from '../tokens/tokenSet';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

const ALL_RETRIES_MS = PROOF_RETRIES_MS.reduce((sum, ms) => sum + ms, 0) + 1000;

function post(b: ReturnType<typeof browser>, message: object) {
  b.bus.factory(channelName('gatehouse', 'gatehouse-shell')).postMessage(message);
}

/** Mallory's token set, signed by the provider, `expiresIn` seconds from now. */
function mallorys(expiresIn: number) {
  const now = Math.floor(Date.now() / 1000);
  const claims = shellClaims({ sub: 'id-mallory', sid: 'sid-mallory', name: 'Mallory', iat: now + expiresIn - 300, exp: now + expiresIn });
  return { token: signed(claims), idToken: null, timeSkew: 0, refreshExpiresAt: now + 1800 };
}

async function signedOutTab() {
  const b = browser();
  const tab = await b.open((kc) => (kc.initOutcome = 'anonymous')); // the provider has no session in this browser
  const events: SessionEvent[] = [];
  tab.session.on((event) => events.push(event));
  return { b, tab, events };
}

test("a signed-out tab is not signed in by another user's valid token set: it asks the provider, which knows no session here", async () => {
  const { b, tab } = await signedOutTab();

  post(b, { type: 'gatehouse-auth:tokens', tokens: mallorys(300) });
  await jest.advanceTimersByTimeAsync(0);
  await flush();

  expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', user: null });
  expect(tab.instances.at(-1)?.initCalls[0]).toMatchObject({ onLoad: 'check-sso', silentCheckSsoFallback: false });
});

test("an expired token set with timeSkew 1e9 is refused by this tab's own clock: no sign-in, not even a question to the provider", async () => {
  const { b, tab } = await signedOutTab();

  post(b, { type: 'gatehouse-auth:tokens', tokens: { ...mallorys(-3600), timeSkew: 1e9 } });
  await jest.advanceTimersByTimeAsync(0);
  await flush();

  expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', user: null });
  expect(tab.instances).toHaveLength(1);
});

test('an expired token set of this very session with timeSkew 1e9 replaces nothing in a signed-in tab', async () => {
  const b = browser();
  const tab = await b.open();
  const before = await tab.session.getToken();
  const access = decodeClaims(before) ?? {};
  const now = Math.floor(Date.now() / 1000);
  const expired = signed({ ...access, name: 'Expired', iat: now + 1, exp: now - 3600 });

  post(b, { type: 'gatehouse-auth:tokens', tokens: { token: expired, idToken: null, timeSkew: 1e9, refreshExpiresAt: now + 86_400 } });
  await jest.advanceTimersByTimeAsync(0);

  expect(await tab.session.getToken()).toBe(before);
  expect(tab.session.getSnapshot().user?.name).not.toBe('Expired');
});

test.each([
  ['signed-out', { type: 'gatehouse-auth:signed-out' }],
  ['signed-out (idle)', { type: 'gatehouse-auth:signed-out', idle: true }],
  ['watch-session-ended', { type: 'gatehouse-auth:watch-session-ended' }],
  ['refresh-failed (refused)', { type: 'gatehouse-auth:refresh-failed', refused: true }],
])('%s posted while the provider says the session lives signs no tab out; the refusal is reported', async (_, message) => {
  const b = browser();
  const leader = await b.open();
  const follower = await b.open();
  const events: SessionEvent[] = [];
  follower.session.on((event) => events.push(event));

  post(b, message);
  await jest.advanceTimersByTimeAsync(ALL_RETRIES_MS);

  for (const tab of [leader, follower]) expect(tab.session.getSnapshot()).toMatchObject({ status: 'authenticated', signOutReason: null });
  expect(events).toContainEqual({ type: 'tabMessageRefused', reason: expect.stringContaining('did not confirm that the session ended') });
  expect(follower.kc().userInfoCalls).toBeGreaterThan(0); // it asked the provider itself
});

test('a real sign-out still reaches every tab: the provider confirms it to each', async () => {
  const b = browser();
  const leader = await b.open();
  const follower = await b.open();

  await leader.session.logout(); // ends the provider's session (the fake's logout endpoint)
  await jest.advanceTimersByTimeAsync(0);
  await flush();

  expect(follower.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'other-tab' });
});

test('a seeded tab whose token ran out asks the leading tab first; with the session alive there, a forged signed-out changes nothing', async () => {
  const b = browser();
  await b.open();
  const follower = await b.open();
  jest.setSystemTime(Date.now() + 61_000); // every access token (60 s) ran out; nothing asked for one

  post(b, { type: 'gatehouse-auth:signed-out' });
  await jest.advanceTimersByTimeAsync(ALL_RETRIES_MS);

  expect(follower.session.getSnapshot().status).toBe('authenticated');
  expect(follower.kc().refreshToken).toBeUndefined(); // still seeded: the leading tab's refresh vouched for it
});

test('activity at a time far in the future (8.64e15) does not hold off the idle sign-out', async () => {
  const b = browser();
  const idle = { idleTimeoutMinutes: 2 };
  const tab = await b.open(undefined, { activityTarget: null }, idle);

  post(b, { type: 'gatehouse-auth:activity', at: 8.64e15 });
  await jest.advanceTimersByTimeAsync(125_000);
  await flush();

  expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'idle' });
});

test('a session-watch time in the future (watch-checked) does not stop the leading tab from checking', async () => {
  const b = browser();
  const leader = await b.open(undefined, { activityTarget: null, development: false });
  // the check: user-info with a valid token, else the refresh (the 60 s token has run out by then)
  const calls = () => leader.instances.reduce((sum, kc: FakeKeycloak) => sum + kc.userInfoCalls + kc.networkRefreshes, 0);

  post(b, { type: 'gatehouse-auth:watch-checked', at: 8.64e15 });
  await jest.advanceTimersByTimeAsync(250_000); // an untouched page is checked every 240 s

  expect(calls()).toBeGreaterThan(0);
});

test('while a tab asks the provider whether the session ended, it seeds no new tab: the new tab asks the provider itself', async () => {
  const b = browser();
  await b.open();
  post(b, { type: 'gatehouse-auth:signed-out' }); // the leading tab now asks the provider (it says the session lives)

  const tab = await b.open();

  expect(tab.kc().initCalls[0]).toMatchObject({ onLoad: 'check-sso' }); // not seeded from the doubted session
  expect(tab.session.getSnapshot().status).toBe('authenticated');
  await jest.advanceTimersByTimeAsync(ALL_RETRIES_MS);
});

test("the provider's word arriving another way while a sign-out is checked (the login-status frame) ends the tab with the claim's reason", async () => {
  const b = browser();
  const leader = await b.open();
  post(b, { type: 'gatehouse-auth:signed-out', idle: true }); // the provider still says the session lives

  leader.kc().frameReportsChanged(); // keycloak-js's frame: the provider's cookie is gone
  await jest.advanceTimersByTimeAsync(0); // keycloak-js's callbacks are told apart in a (faked) microtask

  expect(leader.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'idle' });
  await jest.advanceTimersByTimeAsync(ALL_RETRIES_MS);
});

test("an API's token of this very session, posted as the session's token, replaces nothing", async () => {
  const b = browser();
  const tab = await b.open();
  const before = await tab.session.getToken();
  const access = decodeClaims(before) ?? {};
  const now = Math.floor(Date.now() / 1000);
  // what a downscoped refresh answers: the session's user, session, issuer and client, for one API, without openid
  const apiToken = signed({ ...access, aud: 'profile-api', scope: 'profile-api', name: 'API', iat: now + 1, exp: now + 300 });

  post(b, { type: 'gatehouse-auth:tokens', tokens: { token: apiToken, idToken: null, timeSkew: 0, refreshExpiresAt: now + 1800 } });
  await jest.advanceTimersByTimeAsync(0);
  await flush();

  expect(await tab.session.getToken()).toBe(before);
  expect(tab.session.getSnapshot().user?.name).not.toBe('API');
});
