import { AuthError } from '../../errors';
import type { ApiBinding, Session } from '../../types';

/** The views made of each session, per binding (`null` for the page view), so the same remote gets the same object. */
const made = new WeakMap<Session, Map<string, Session>>();

function keyOf(api: ApiBinding | null): string {
  if (api === null) return 'page';
  let url: string;
  try {
    url = new URL(api.url).href;
  } catch {
    url = String(api.url);
  }
  return JSON.stringify([url, api.audience, api.scope]);
}

function refusal(own: ApiBinding | null, asked: unknown): AuthError {
  const audience =
    typeof asked === 'object' && asked !== null && typeof (asked as { audience?: unknown }).audience === 'string'
      ? `"${(asked as { audience: string }).audience}"`
      : 'another API';
  const reach = own
    ? `reaches only its own API (audience "${own.audience}" at ${own.url})`
    : 'is the page session without any API audience';
  return new AuthError(
    'invalid-argument',
    `forApi(): this remote's session ${reach}, so it gives out no token for ${audience}. Name the API your remote ` +
      'calls in its registry entry (config.json, remotes[].api: { url, audience, scope }); the shell then gives the ' +
      'remote a session for that API (decisions/0109).',
  );
}

/**
 * What a remote gets of the page's session (decisions/0109): for a remote whose registry entry names `api`, the
 * session as that API's caller (`session.forApi(api)`: tokens with that audience alone); for one that names none,
 * the page session. Either way a view that reaches no further: `forApi` returns the view itself for its own API
 * and refuses any other with an AuthError that says to name the API in the remote's registry entry. Login, logout,
 * the profile, roles, the snapshot, events and the expiry warning read through to the session.
 *
 * The shell makes one per remote and hands it to that remote's code (its `<AuthProvider>`, and its copy of this
 * package's entry points); the page registry, which every script can read, holds the page view (`api` null).
 * The same session and binding give the same view.
 *
 * @example
 * const view = remoteView(rootSession, remote.api ?? null);
 * render(<AuthProvider session={view}><RemoteApp /></AuthProvider>);
 */
export function remoteView(session: Session, api: ApiBinding | null): Session {
  let views = made.get(session);
  if (!views) made.set(session, (views = new Map()));
  const key = keyOf(api);
  const existing = views.get(key);
  if (existing) return existing;
  const base = api === null ? session : session.forApi(api);
  const own = base.api;
  const view: Session = Object.freeze({
    get config() {
      return base.config;
    },
    api: own,
    forApi: (asked: ApiBinding) => {
      if (own !== null && typeof asked === 'object' && asked !== null && keyOf(asked) === keyOf(own)) return view;
      throw refusal(own, asked);
    },
    getSnapshot: () => base.getSnapshot(),
    subscribe: (listener: () => void) => base.subscribe(listener),
    on: (listener: Parameters<Session['on']>[0]) => base.on(listener),
    ready: () => base.ready(),
    retry: () => base.retry(),
    hasRealmRole: (role: string) => base.hasRealmRole(role),
    hasClientRole: (clientId: string, role: string) => base.hasClientRole(clientId, role),
    getToken: (options?: Parameters<Session['getToken']>[0]) => base.getToken(options),
    authFetch: (input: RequestInfo | URL, init?: RequestInit) => base.authFetch(input, init),
    login: (options?: Parameters<Session['login']>[0]) => base.login(options),
    logout: (options?: Parameters<Session['logout']>[0]) => base.logout(options),
    loadProfile: () => base.loadProfile(),
    extend: () => base.extend(),
    onBeforeSessionEnd: (handler: () => unknown) => base.onBeforeSessionEnd(handler),
  } satisfies Session);
  views.set(key, view);
  return view;
}
