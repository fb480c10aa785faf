import type { Session } from '../types';

/**
 * The page's session lives on `globalThis` under a registered symbol, not in a module variable: two
 * bundled copies of auth-lib on one page (a remote that did not share it) still find the same one.
 * The shape is part of the contract between copies: only add optional fields.
 */
export interface PageRegistry {
  session: Session | null;
  /** resolvers of `whenSession()` calls made before the session existed */
  waiting: ((session: Session) => void)[];
}

export const REGISTRY_KEY: unique symbol = Symbol.for('gatehouse.auth-lib.session') as never;

export function pageRegistry(): PageRegistry {
  const holder = globalThis as typeof globalThis & { [REGISTRY_KEY]?: PageRegistry };
  holder[REGISTRY_KEY] ??= { session: null, waiting: [] };
  return holder[REGISTRY_KEY];
}

/** Makes `session` the page's session and wakes everyone waiting for one. */
export function registerSession(session: Session): void {
  const registry = pageRegistry();
  registry.session = session;
  const waiting = registry.waiting.splice(0);
  for (const resolve of waiting) resolve(session);
}

/** For tests: forget the page's session (the keycloak-js instance is not stopped). */
export function clearPageSession(): void {
  pageRegistry().session = null;
}
