/**
 * Every failure auth-lib reports is an `AuthError` with a stable `code` (for programs) and a message
 * that says what went wrong and what to do (for people).
 */
export type AuthErrorCode =
  /** `createSession` got a config it cannot use; the message names the field */
  | 'invalid-config'
  /** the identity provider did not answer in time, or answered garbage */
  | 'idp-unreachable'
  /** the provider refused the sign-in (bad callback state, nonce, code) */
  | 'login-failed'
  /** an operation needs a signed-in visitor and there is none */
  | 'not-authenticated'
  /** a hook or `getSession()` was used where no session exists */
  | 'no-session'
  /** a method got an argument it cannot use (e.g. a `redirectTo` that is not a path of this app) */
  | 'invalid-argument';

/**
 * A failure in the auth contract.
 *
 * @example
 * try { await session.getToken(); }
 * catch (e) { if (e instanceof AuthError && e.code === 'not-authenticated') await session.login(); }
 */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
