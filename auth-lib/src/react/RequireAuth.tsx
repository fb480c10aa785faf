import type { ReactNode } from 'react';
import { useAuth } from './useAuth';
import { useSignInOnce } from './useSignInOnce';
import { SessionProblem, Waiting } from './states';

export interface RequireAuthProps {
  /** shown to a signed-out visitor instead of sending them to sign in */
  readonly fallback?: ReactNode;
  /** shown while the session is loading (and while the sign-in page is being opened) */
  readonly loading?: ReactNode;
  readonly children?: ReactNode;
}

/**
 * Renders its children only for a signed-in visitor. A signed-out visitor is sent to sign in and
 * comes back to the same path (or sees `fallback`, when given). If the provider cannot be reached,
 * it says so and offers to try again.
 *
 * @example
 * <Route path="/profile" element={<RequireAuth><Profile /></RequireAuth>} />
 */
export function RequireAuth({ fallback, loading, children }: RequireAuthProps) {
  const { status, error, retry } = useAuth();
  const loginError = useSignInOnce(status === 'anonymous' && fallback === undefined);

  if (status === 'authenticated') return <>{children}</>;
  if (status === 'error' || loginError) return <SessionProblem error={error ?? loginError} retry={retry} />;
  if (status === 'anonymous' && fallback !== undefined) return <>{fallback}</>;
  return <>{loading ?? <Waiting />}</>;
}
