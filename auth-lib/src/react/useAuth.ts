import { heldClientRoles } from '../session/roles';
import { useMemo } from 'react';
import type { Session, SessionSnapshot } from '../types';
import { useSessionSnapshot } from './useSession';

/** What `useAuth()` returns: the snapshot's fields plus the session's methods. */
export interface AuthState extends SessionSnapshot {
  readonly session: Session;
  readonly login: Session['login'];
  readonly logout: Session['logout'];
  readonly getToken: Session['getToken'];
  readonly authFetch: Session['authFetch'];
  readonly loadProfile: Session['loadProfile'];
  readonly retry: Session['retry'];
  /** checks the roles of this render's snapshot */
  readonly hasRealmRole: (role: string) => boolean;
  readonly hasClientRole: (clientId: string, role: string) => boolean;
}

/**
 * The session's state and methods for a component; it re-renders when the state changes.
 *
 * @example
 * function Header() {
 *   const { status, user, login, logout } = useAuth();
 *   if (status === 'loading') return null;
 *   return user
 *     ? <button onClick={() => logout()}>Sign out {user.name}</button>
 *     : <button onClick={() => login()}>Sign in</button>;
 * }
 */
export function useAuth(): AuthState {
  const [session, snapshot] = useSessionSnapshot('useAuth()');
  return useMemo(
    () => ({
      ...snapshot,
      session,
      login: (options) => session.login(options),
      logout: (options) => session.logout(options),
      getToken: (options) => session.getToken(options),
      authFetch: (input, init) => session.authFetch(input, init),
      loadProfile: () => session.loadProfile(),
      retry: () => session.retry(),
      hasRealmRole: (role) => snapshot.realmRoles.includes(role),
      hasClientRole: (clientId, role) => heldClientRoles(snapshot.clientRoles, clientId).includes(role),
    }),
    [session, snapshot],
  );
}
