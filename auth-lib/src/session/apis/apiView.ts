import { createAuthFetch, type AuthFetchDependencies } from '../../authFetch';
import type { ApiBinding, Session, TokenOptions } from '../../types';

/** Whether `url` is `base` or under it (a path-segment boundary: `/profile` covers `/profile/me`, not `/profiles`). */
export function isUnder(url: URL, base: URL): boolean {
  if (url.origin !== base.origin) return false;
  const root = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return url.pathname === base.pathname || url.pathname.startsWith(root);
}

/** `authorize`, `askedForNonce`: how a token goes with a request (a DPoP-bound one with a proof, decisions/0110). */
export interface ApiViewDependencies extends Pick<AuthFetchDependencies, 'authorize' | 'askedForNonce'> {
  readonly getToken: (api: ApiBinding, options?: TokenOptions) => Promise<string>;
  readonly location: Pick<Location, 'origin' | 'href'>;
  readonly fetch?: typeof fetch;
  readonly development?: boolean;
}

/**
 * `session` as one API's caller (decisions/0054): everything reads through to the page's session except the
 * token, which is the API's own (audience `api.audience` alone), and `authFetch`, which sends it only to
 * `api.url` and what is under it. Asking a view for another API's view gives that API's view of the page session.
 */
export function apiView(session: Session, api: ApiBinding, deps: ApiViewDependencies): Session {
  const base = new URL(api.url);
  const getToken = (options?: TokenOptions) => deps.getToken(api, options);
  const authFetch = createAuthFetch({
    getToken,
    trustedOrigins: [],
    trusts: (url) => isUnder(url, base),
    untrusted: (address) =>
      `authFetch: sending this request to ${address} without a token: this remote's token is for ${api.audience} and goes ` +
      `only to ${base.href} and what is under it (its registry entry's api.url).`,
    location: deps.location,
    ...(deps.authorize ? { authorize: deps.authorize } : {}),
    ...(deps.askedForNonce ? { askedForNonce: deps.askedForNonce } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.development === undefined ? {} : { development: deps.development }),
  });
  return Object.freeze({
    get config() {
      return session.config;
    },
    api: Object.freeze({ ...api }),
    forApi: (other: ApiBinding) => session.forApi(other),
    getSnapshot: () => session.getSnapshot(),
    subscribe: (listener: () => void) => session.subscribe(listener),
    on: (listener: Parameters<Session['on']>[0]) => session.on(listener),
    ready: () => session.ready(),
    retry: () => session.retry(),
    hasRealmRole: (role: string) => session.hasRealmRole(role),
    hasClientRole: (clientId: string, role: string) => session.hasClientRole(clientId, role),
    getToken,
    authFetch,
    login: (options?: Parameters<Session['login']>[0]) => session.login(options),
    logout: (options?: Parameters<Session['logout']>[0]) => session.logout(options),
    loadProfile: () => session.loadProfile(),
    extend: () => session.extend(),
    onBeforeSessionEnd: (handler: () => unknown) => session.onBeforeSessionEnd(handler),
  } satisfies Session);
}
