import { getSession, type Session, type SessionSnapshot } from '@gatehouse/auth-lib';
import { useSyncExternalStore } from 'react';

/** The page's session (the shell's, or the standalone page's) and its live snapshot. */
export function useSessionSnapshot(): [Session, SessionSnapshot] {
  const session = getSession();
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
  return [session, snapshot];
}
