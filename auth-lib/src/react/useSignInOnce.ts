import { useEffect, useState } from 'react';
import type { Session } from '../types';
import { useAuth } from './useAuth';

// Sessions whose trip to the sign-in page has started. keycloak-js' login() navigates away, so one trip per
// page is enough: StrictMode's second effect run, a remount, or a second guard on the page must not start
// another. Kept per session (not one flag per module), so a new session — a test's, or after a failed
// attempt — starts afresh.
const started = new WeakSet<Session>();

/**
 * Sends the visitor to sign in once, while `when` is true, and back to `redirectTo` (default: the current
 * path, query and hash). Returns the error when the sign-in page could not be opened, else null. The one
 * sign-in guard behind `RequireAuth`, the shell's sign-in page and a remote's standalone frame.
 *
 * @example
 * function SignInPage({ redirectTo }: { redirectTo: string }) {
 *   const error = useSignInOnce(true, redirectTo);
 *   return <p>{error ? 'The sign-in page did not open.' : 'Taking you to sign in…'}</p>;
 * }
 */
export function useSignInOnce(when: boolean, redirectTo?: string): unknown {
  const { session } = useAuth();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!when || started.has(session)) return;
    started.add(session);
    const { pathname, search, hash } = window.location;
    session.login({ redirectTo: redirectTo ?? `${pathname}${search}${hash}` }).catch((reason: unknown) => {
      started.delete(session);
      setError(reason);
    });
  }, [when, redirectTo, session]);
  return error;
}
