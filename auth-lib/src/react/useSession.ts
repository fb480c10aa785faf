import { useCallback, useContext, useSyncExternalStore } from 'react';
import { AuthError } from '../errors';
import { pageRegistry } from '../session/registry';
import type { Session, SessionSnapshot } from '../types';
import { SessionContext } from './SessionContext';

/**
 * The session a hook reads: the nearest `<AuthProvider session>`, else the page session. A remote
 * rendered in a React root of its own has no provider above it and still finds the shell's session.
 */
export function useSession(hookName: string): Session {
  const provided = useContext(SessionContext);
  const session = provided ?? pageRegistry().session;
  if (!session) {
    throw new AuthError(
      'no-session',
      `${hookName} must be used inside <AuthProvider> or after the shell created the session with createSession().`,
    );
  }
  return session;
}

/** The session and its current snapshot; re-renders when the snapshot changes. */
export function useSessionSnapshot(hookName: string): [Session, SessionSnapshot] {
  const session = useSession(hookName);
  // bound here so sessions whose methods rely on `this` work too
  const subscribe = useCallback((listener: () => void) => session.subscribe(listener), [session]);
  const getSnapshot = useCallback(() => session.getSnapshot(), [session]);
  return [session, useSyncExternalStore(subscribe, getSnapshot, getSnapshot)];
}
