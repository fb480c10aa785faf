import { clearPageSession, registerSession } from '../session/registry';
import type { Session } from '../types';

/**
 * Makes `session` the page session for code that calls `getSession()`, the standalone `authFetch`,
 * or hooks without an `<AuthProvider>`; `null` removes it. Call `setPageSession(null)` after each test.
 *
 * @example
 * beforeEach(() => setPageSession(createTestSession()));
 * afterEach(() => setPageSession(null));
 */
export function setPageSession(session: Session | null): void {
  if (session) registerSession(session);
  else clearPageSession();
}
