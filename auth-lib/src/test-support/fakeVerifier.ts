import type { TokenVerifier } from '../session/tokens/tokenVerifier';

/** What the fake provider "signs" its tokens with; `fakeVerifier` accepts only these. */
export const FAKE_SIGNATURE = 'sig';

/**
 * The signature check at the edge of the unit tests (the real one, tokenVerifier.ts, runs in the browser
 * suites against the provider's keys): a token set verifies when its tokens carry the fake provider's signature.
 */
export const fakeVerifier: TokenVerifier = async (set) => {
  const signed = (jwt: string) => (jwt.split('.')[2] ?? '').startsWith(FAKE_SIGNATURE);
  if (!signed(set.token)) return 'access token: signature does not verify';
  if (set.idToken !== null && !signed(set.idToken)) return 'ID token: signature does not verify';
  return null;
};
