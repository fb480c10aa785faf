import { FakeKeycloak } from '../../test-support/fakeKeycloak';
import { signedInSnapshot } from '../snapshot';
import { expiryOf, tokenExpired } from './tokenSet';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

// keycloak-js's timeSkew is this clock minus the provider's: a token expires here at exp + timeSkew, which is what
// its isTokenExpired() and so every refresh decision use; the snapshot and the session's deadlines must agree.
test.each([10, 0, -10])("a token's expiry on this clock is exp + timeSkew (%i s), as keycloak-js's isTokenExpired counts", (skew) => {
  const kc = new FakeKeycloak();
  kc.signIn({ sub: 'id-alice', preferred_username: 'alice' });
  kc.timeSkew = skew;
  const exp = kc.tokenParsed!.exp as number;

  expect(expiryOf(kc.token, skew)).toBe((exp + skew) * 1000);
  expect(signedInSnapshot(kc).tokenExpiresAt).toBe((exp + skew) * 1000);
  const left = Math.round(((exp + skew) * 1000 - Date.now()) / 1000);
  expect(tokenExpired(kc, left)).toBe(false);
  expect(tokenExpired(kc, left + 1)).toBe(true);
});
