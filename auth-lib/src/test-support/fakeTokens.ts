import { FAKE_SIGNATURE } from './fakeVerifier';

/** The fake provider's issuer (the realm `gatehouse` on :8080) and the shell's client: the `iss` and `azp` of its tokens. */
export const FAKE_ISSUER = 'http://localhost:8080/realms/gatehouse';
export const FAKE_CLIENT = 'gatehouse-shell';

/**
 * A JWT of `claims` whose signature part is `signature`: the fake provider's when it begins with FAKE_SIGNATURE
 * (`fakeVerifier` accepts it), a forgery otherwise.
 */
export const jwt = (claims: object, signature: string): string =>
  `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;

/** A token the (fake) provider signed: what a leading tab shares after a real refresh, or a script could have captured. */
export const signed = (claims: object): string => jwt(claims, `${FAKE_SIGNATURE}-provider`);

/** The claims of a token the fake provider issues to the shell (its `iss` and `azp`), with `claims`. */
export const shellClaims = <T extends object>(claims: T) => ({ iss: FAKE_ISSUER, azp: FAKE_CLIENT, ...claims });
