// Security round (issue 24): a same-origin message on the tab channel with edited claims is not adopted.
import { browser } from '../test-support/sessions';
import { channelName } from './otherTabs';
import { decodeClaims } from './tokenSet';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

const base64url = (claims: object) => Buffer.from(JSON.stringify(claims)).toString('base64url');
const jwt = (claims: object) => `eyJhbGciOiJSUzI1NiJ9.${base64url(claims)}.forged`;

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
    tokens: {
      token: jwt(forged),
      refreshToken: jwt({ typ: 'Refresh', sid: forged.sid, azp: forged.azp, exp: now + 1800 }),
      idToken: null,
      timeSkew: 0,
    },
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
  const next = jwt({ ...access, iat: now + 1, exp: now + 301 });

  post(b.bus, {
    type: 'gatehouse-auth:tokens',
    tokens: { token: next, refreshToken: jwt({ typ: 'Refresh', sid: access.sid, exp: now + 1800 }), idToken: null, timeSkew: 0 },
  });
  await jest.advanceTimersByTimeAsync(0);

  expect(await tab.session.getToken()).toBe(next);
});
