import type { ReactNode } from 'react';
import type { Session } from '../types';
import { SessionContext } from './SessionContext';

export interface AuthProviderProps {
  /** the session to provide; without it, hooks below read the page session (`getSession()`) */
  readonly session?: Session;
  readonly children?: ReactNode;
}

/**
 * Makes `session` the one that the hooks and guards below it read. The shell does not need it (hooks
 * fall back to the page session); it is for tests (`createTestSession`) and for pages with a
 * session of their own.
 *
 * @example
 * const session = createTestSession({ realmRoles: ['admin'] });
 * render(<AuthProvider session={session}><AdminPage /></AuthProvider>);
 */
export function AuthProvider({ session, children }: AuthProviderProps) {
  return <SessionContext.Provider value={session ?? null}>{children}</SessionContext.Provider>;
}
