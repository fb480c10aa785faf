import type { Session, SessionSnapshot } from '@gatehouse/auth-lib';
import { useSyncExternalStore } from 'react';

/** The session's current snapshot; re-renders on every change. */
export function useSnapshot(session: Session): SessionSnapshot {
  return useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
}
