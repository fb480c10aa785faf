import type { User } from '../types';
import { useSessionSnapshot } from './useSession';

/**
 * The signed-in user, or null when no one is signed in (or the session is still loading).
 *
 * @example
 * function Greeting() {
 *   const user = useUser();
 *   return <p>{user ? `Hello, ${user.name}` : 'Welcome'}</p>;
 * }
 */
export function useUser(): User | null {
  return useSessionSnapshot('useUser()')[1].user;
}
