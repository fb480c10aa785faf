import type { Session } from '../types';

/**
 * What the page registry holds and `createSession` / `getSession` hand out: the `Session` contract and
 * nothing else. The KeycloakSession behind it (with its keycloak-js instance, which holds the refresh and
 * ID tokens) stays in this closure, so no script reaches those tokens through the global registry entry.
 * A remote still gets the access token (`getToken()`), by contract.
 */
export function publicSession(inner: Session): Session {
  return Object.freeze({
    get config() {
      return inner.config;
    },
    api: null,
    forApi: (api) => inner.forApi(api),
    getSnapshot: () => inner.getSnapshot(),
    subscribe: (listener) => inner.subscribe(listener),
    on: (listener) => inner.on(listener),
    ready: () => inner.ready(),
    retry: () => inner.retry(),
    hasRealmRole: (role) => inner.hasRealmRole(role),
    hasClientRole: (clientId, role) => inner.hasClientRole(clientId, role),
    getToken: (options) => inner.getToken(options),
    authFetch: (input, init) => inner.authFetch(input, init),
    login: (options) => inner.login(options),
    logout: (options) => inner.logout(options),
    loadProfile: () => inner.loadProfile(),
    extend: () => inner.extend(),
    onBeforeSessionEnd: (handler) => inner.onBeforeSessionEnd(handler),
  } satisfies Session);
}
