/**
 * Every failure auth-lib reports is an `AuthError` with a stable `code` (for programs) and a message
 * that says what went wrong and what to do (for people).
 */
export type AuthErrorCode =
  /** `createSession` got a config it cannot use; the message names the field */
  | 'invalid-config'
  /** the identity provider did not answer in time, or answered garbage */
  | 'idp-unreachable'
  /** the provider refused this page's origin (not among the client's web origins); the message names the fix */
  | 'origin-not-allowed'
  /** the provider refused the sign-in (bad callback state, nonce, code) */
  | 'login-failed'
  /** an operation needs a signed-in visitor and there is none */
  | 'not-authenticated'
  /** a hook or `getSession()` was used where no session exists */
  | 'no-session'
  /** a method got an argument it cannot use (e.g. a `redirectTo` that is not a path of this app) */
  | 'invalid-argument';

/** The OAuth 2.0 / OpenID Connect error fields of a provider's answer (RFC 6749 §4.1.2.1, §5.2). */
export interface ProtocolError {
  /** e.g. `access_denied`, `invalid_grant`, `login_required` */
  readonly error: string;
  readonly error_description?: string;
}

/**
 * A failure in the auth contract. `code` says which (the one discriminator name across Gatehouse's errors);
 * when the identity provider answered with an OAuth error, `error` and `error_description` keep its fields.
 *
 * @example
 * try { await session.getToken(); }
 * catch (e) { if (e instanceof AuthError && e.code === 'not-authenticated') await session.login(); }
 */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: AuthErrorCode;
  /** the provider's OAuth `error`, when it sent one */
  declare readonly error?: string;
  /** the provider's OAuth `error_description`, when it sent one */
  declare readonly error_description?: string;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown; protocol?: ProtocolError | null }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options?.protocol) {
      this.error = options.protocol.error;
      if (options.protocol.error_description !== undefined) this.error_description = options.protocol.error_description;
    }
  }
}
