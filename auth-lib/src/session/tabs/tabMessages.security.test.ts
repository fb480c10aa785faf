// Security rounds: a same-origin message on the tab channel with edited claims is not adopted,
// whether it names another session or this one (its signature no longer verifies: decisions/0053).
import type { SessionEvent } from '../../types';
import { jwt, signed } from '../../test-support/fakeTokens';
import { browser } from '../../test-support/sessions';
import { channelName } from './tabChannel';
import { decodeClaims } from '../tokens/tokenSet';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

/** Posts on the tab channel as any same-origin script can. */
function post(bus: ReturnType<typeof browser>['bus'], message: object) {
  bus.factory(channelName('gatehouse', 'gatehouse-shell')).postMessage(message);
}

test.each([
  ['another user (sub)', { sub: 'mallory' }],
  ['another SSO session (sid)', { sid: 'sid-mallory' }],
  ['another issuer (iss)', { iss: 'http://evil.example/realms/gatehouse' }],
  ['another client (azp)', { azp: 'other-client' }],
])('a token set of %s, with a newer iat and more roles, is not adopted by a signed-in tab', async (_, edit) => {
  const b = browser();
  const tab = await b.open();
  const before = tab.session.getSnapshot();
  const access = decodeClaims(tab.kc().token) ?? {};
  const now = Math.floor(Date.now() / 1000);
  const forged: Record<string, unknown> = {
    ...access,
    name: 'Mallory (forged)',
    iat: now + 1,
    realm_access: { roles: ['superadmin'] },
    ...edit,
  };

  post(b.bus, {
    type: 'gatehouse-auth:tokens',
    tokens: { token: signed(forged), idToken: null, timeSkew: 0, refreshExpiresAt: now + 1800 },
  });
  await jest.advanceTimersByTimeAsync(0);

  expect(tab.session.getSnapshot()).toBe(before);
  expect(tab.session.hasRealmRole('superadmin')).toBe(false);
  expect(tab.session.getSnapshot().user?.name).not.toBe('Mallory (forged)');
});

test('a newer token set of the same session (as the leading tab shares after a refresh) is adopted', async () => {
  const b = browser();
  const tab = await b.open();
  const access = decodeClaims(tab.kc().token) ?? {};
  const now = Math.floor(Date.now() / 1000);
  const next = signed({ ...access, iat: now + 1, exp: now + 301 });

  post(b.bus, { type: 'gatehouse-auth:tokens', tokens: { token: next, idToken: null, timeSkew: 0, refreshExpiresAt: now + 1800 } });
  await jest.advanceTimersByTimeAsync(0);

  expect(await tab.session.getToken()).toBe(next);
});

test('a token set of this very session (same sub, sid, iss, azp) with edited claims and a broken signature is refused and reported', async () => {
  const b = browser();
  const tab = await b.open();
  const events: SessionEvent[] = [];
  tab.session.on((event) => events.push(event));
  const before = tab.session.getSnapshot();
  const original = await tab.session.getToken();
  const access = decodeClaims(original) ?? {};
  const now = Math.floor(Date.now() / 1000);
  const forged = jwt({ ...access, name: 'Mallory', iat: now + 1, exp: now + 86_400, realm_access: { roles: ['superadmin'] } }, 'forged');

  post(b.bus, { type: 'gatehouse-auth:tokens', tokens: { token: forged, idToken: null, timeSkew: 0, refreshExpiresAt: now + 86_400 } });
  await jest.advanceTimersByTimeAsync(0);

  expect(tab.session.getSnapshot()).toBe(before);
  expect(await tab.session.getToken()).toBe(original);
  expect(events).toEqual([{ type: 'tabMessageRefused', reason: 'access token: signature does not verify' }]);
});

test('a refresh token in a message is never taken: the token set keeps only the access and ID tokens', async () => {
  const b = browser();
  const tab = await b.open();
  const own = tab.kc().refreshToken;
  const access = decodeClaims(tab.kc().token) ?? {};
  const now = Math.floor(Date.now() / 1000);
  const next = signed({ ...access, iat: now + 1, exp: now + 301 });

  post(b.bus, {
    type: 'gatehouse-auth:tokens',
    tokens: { token: next, refreshToken: signed({ typ: 'Refresh' }), idToken: null, timeSkew: 0, refreshExpiresAt: null },
  });
  await jest.advanceTimersByTimeAsync(0);

  expect(await tab.session.getToken()).toBe(next);
  expect(tab.kc().refreshToken).toBe(own);
});
