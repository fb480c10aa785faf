/** Why a remote could not be shown, in the words its slot uses. */
export type RemoteFailureCode =
  /** its server did not answer (down, wrong host or port) */
  | 'unreachable'
  /** its server answered, but not with a federation manifest at the configured address */
  | 'manifest-missing'
  /** its remote entry or a chunk of its code could not be loaded */
  | 'code-unavailable'
  /** it was built against a major of @gatehouse/auth-lib that this shell does not provide */
  | 'incompatible-auth-lib'
  /** it was built against another major of React, react-dom or the router than this shell shares */
  | 'incompatible-shared'
  /** its code loaded but threw (while starting or rendering) */
  | 'code-failed'
  /** it does not expose the module the registry names, or that module is not a component */
  | 'no-app'
  /** its manifest names code the shell does not run: outside the override allowlist, or computed by a function */
  | 'code-refused'
  /** its registry entry pins signing keys and this release of it did not verify (decisions/0117): none of its code ran */
  | 'release-unverified';

/** A remote that failed to load or render; its slot shows `message` and offers a retry. `code` says why (the one
 * discriminator name across Gatehouse's errors, as `AuthError.code`). */
export class RemoteLoadError extends Error {
  override readonly name = 'RemoteLoadError';

  constructor(
    readonly remote: string,
    readonly code: RemoteFailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
