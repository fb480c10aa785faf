import type { RealmRuntime } from '../server/RealmRuntime.js';
import type { User } from '../realm/model.js';

/**
 * Checks the password of a sign-in (form, step-up, password grant) under the realm's brute-force detection,
 * as Keycloak does: a locked-out user is refused like a wrong password, a failure counts towards a lockout
 * (a permanent one disables the user), a success clears the count.
 */
export function passwordAccepted(runtime: RealmRuntime, user: User, password: string | null): boolean {
  if (runtime.bruteForce.lockedOut(user.id)) return false;
  if (user.password === undefined || user.password !== password) {
    if (runtime.bruteForce.failure(user.id) === 'disable') user.enabled = false;
    return false;
  }
  runtime.bruteForce.success(user.id);
  return true;
}
