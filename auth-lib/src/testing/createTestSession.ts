import { apiView } from '../session/apis/apiView';
import { heldClientRoles } from '../session/roles';
import { createAuthFetch } from '../authFetch';
import { AuthError } from '../errors';
import { resolveConfig } from '../session/config';
import { keycloakLoginOptions } from '../session/keycloak/loginOptions';
import { SIGNED_OUT } from '../session/snapshot';
import { EventEmitter, SnapshotStore } from '../session/store';
import type {
  LoginOptions,
  LogoutOptions,
  Profile,
  Session,
  SessionConfig,
  SessionSnapshot,
  SessionStatus,
  SignOutReason,
  TokenOptions,
  User,
} from '../types';

export interface TestSessionOptions {
  /** the signed-in user; `null` for a signed-out session. Default: "Test User" (id `test-user`) */
  readonly user?: Partial<User> | null;
  readonly realmRoles?: readonly string[];
  /** client id → roles, e.g. `{ reports: ['viewer'] }` */
  readonly clientRoles?: Readonly<Record<string, readonly string[]>>;
  /** the level of authentication of the signed-in session (`acr`); default `"1"` */
  readonly acr?: string;
  /** what `getToken()` returns; default `"test-token"` */
  readonly token?: string;
  /** default `authenticated` when there is a user, else `anonymous` */
  readonly status?: SessionStatus;
  /** what `loadProfile()` returns; default derived from the user */
  readonly profile?: Profile;
  /** config fields (e.g. `trustedOrigins` for authFetch) */
  readonly config?: Partial<SessionConfig>;
  /** `fetch` behind `authFetch`; default the global one */
  readonly fetch?: typeof fetch;
}

/** What a test session recorded; arrays grow with each call. */
export interface TestSessionCalls {
  readonly login: LoginOptions[];
  readonly logout: LogoutOptions[];
  readonly getToken: TokenOptions[];
  readonly loadProfile: number;
  readonly retry: number;
  readonly extend: number;
}

/** A `Session` for unit tests, with helpers to drive it. */
export interface TestSession extends Session {
  readonly calls: TestSessionCalls;
  /** merges fields into the snapshot (and notifies subscribers), e.g. `setState({ status: 'loading' })` */
  setState(next: Partial<SessionSnapshot> & { readonly token?: string }): void;
  /** signs in (as the given user and roles, or the ones the session was created with); emits signedIn */
  signIn(options?: Pick<TestSessionOptions, 'user' | 'realmRoles' | 'clientRoles' | 'token' | 'acr'>): void;
  /** signs out as if for `reason`; emits signedOut */
  signOut(reason?: SignOutReason): void;
  /** runs the `onBeforeSessionEnd` handlers, then signs out for `reason` (default `session-expired`) */
  endSession(reason?: SignOutReason): Promise<void>;
  /** replaces the token as a refresh would; emits tokenRefreshed */
  refreshToken(token: string, tokenExpiresAt?: number): void;
}

const TEST_CONFIG: SessionConfig = { url: 'http://idp.test', realm: 'test', clientId: 'test-client' };

function fullUser(user: Partial<User>): User {
  const id = user.id ?? 'test-user';
  const username = user.username ?? id;
  return { id, username, name: user.name ?? 'Test User', email: user.email ?? null };
}

/**
 * A session with no network and no keycloak-js, for a remote's unit tests: render components
 * signed in, signed out, loading or with given roles, and check what they asked the session to do.
 *
 * @example
 * const session = createTestSession({ realmRoles: ['admin'] });
 * render(<AuthProvider session={session}><AdminPage /></AuthProvider>);
 * await userEvent.click(screen.getByText('Sign out'));
 * expect(session.calls.logout).toHaveLength(1);
 * act(() => session.signOut('session-ended'));
 */
export function createTestSession(options: TestSessionOptions = {}): TestSession {
  const config = resolveConfig({ ...TEST_CONFIG, ...options.config }, globalThis.location?.origin ?? 'http://localhost');
  const events = new EventEmitter();
  let defaults = options;
  let token: string | null = null;
  const calls = {
    login: [] as LoginOptions[],
    logout: [] as LogoutOptions[],
    getToken: [] as TokenOptions[],
    loadProfile: 0,
    retry: 0,
    extend: 0,
  };
  const beforeEnd = new Set<() => unknown>();

  const signedInState = (from: TestSessionOptions): Partial<SessionSnapshot> => ({
    status: 'authenticated',
    user: fullUser(from.user ?? {}),
    realmRoles: from.realmRoles ?? [],
    clientRoles: from.clientRoles ?? {},
    tokenExpiresAt: Date.now() + 5 * 60_000,
    signedInAt: Date.now(),
    sessionId: 'test-session',
    acr: from.acr ?? '1',
    error: null,
    signOutReason: null,
  });
  const store = new SnapshotStore({ ...(SIGNED_OUT as SessionSnapshot), signOutReason: null, sessionWatch: 'frame' });
  const status = options.status ?? (options.user === null ? 'anonymous' : 'authenticated');
  if (status === 'authenticated') {
    store.set(signedInState(options));
    token = options.token ?? 'test-token';
  } else {
    store.set({ status });
  }

  const getToken = async (tokenOptions: TokenOptions = {}): Promise<string> => {
    calls.getToken.push(tokenOptions);
    if (store.get().status !== 'authenticated' || token === null) {
      throw new AuthError('not-authenticated', 'No one is signed in, so there is no access token. Call session.login() to sign in.');
    }
    return token;
  };

  const views = new Map<string, Session>();
  const session: TestSession = {
    config,
    calls,
    api: null,
    // a view like the real one: the API's token is "<token>:<audience>" and goes only under api.url
    forApi: (api) => {
      const key = JSON.stringify([api.url, api.audience, api.scope]);
      const view =
        views.get(key) ??
        apiView(session, api, {
          getToken: async (binding, tokenOptions) => `${await getToken(tokenOptions)}:${binding.audience}`,
          location: globalThis.location,
          development: false,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
      views.set(key, view);
      return view;
    },
    getSnapshot: store.get,
    subscribe: store.subscribe,
    on: events.on,
    ready: async () => store.get(),
    retry: async () => {
      calls.retry += 1;
      return store.get();
    },
    hasRealmRole: (role) => store.get().realmRoles.includes(role),
    hasClientRole: (clientId, role) => heldClientRoles(store.get().clientRoles, clientId).includes(role),
    getToken,
    authFetch: createAuthFetch({
      getToken,
      trustedOrigins: config.trustedOrigins,
      location: globalThis.location,
      development: false,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
    login: async (loginOptions = {}) => {
      // the same checks as the real session, so a malformed option fails in a remote's unit test too
      keycloakLoginOptions(loginOptions);
      calls.login.push(loginOptions);
    },
    logout: async (logoutOptions = {}) => {
      calls.logout.push(logoutOptions);
      session.signOut('user');
    },
    loadProfile: async () => {
      calls.loadProfile += 1;
      const user = store.get().user;
      if (!user) throw new AuthError('not-authenticated', 'No one is signed in. Call session.login() to sign in.');
      const [firstName = null, ...rest] = user.name.split(' ');
      return (
        options.profile ?? {
          id: user.id,
          username: user.username,
          firstName,
          lastName: rest.join(' ') || null,
          email: user.email,
          emailVerified: true,
        }
      );
    },
    extend: async () => {
      calls.extend += 1;
    },
    onBeforeSessionEnd: (handler) => {
      beforeEnd.add(handler);
      return () => void beforeEnd.delete(handler);
    },
    endSession: async (reason = 'session-expired') => {
      await Promise.allSettled([...beforeEnd].map(async (handler) => handler()));
      session.signOut(reason);
    },
    setState: ({ token: nextToken, ...next }) => {
      if (nextToken !== undefined) token = nextToken;
      store.set(next);
    },
    signIn: (signInOptions) => {
      defaults = { ...defaults, ...signInOptions };
      token = defaults.token ?? 'test-token';
      store.set(signedInState(defaults));
      const { user } = store.get();
      if (user) events.emit({ type: 'signedIn', user });
    },
    signOut: (reason = 'user') => {
      token = null;
      store.set({ ...SIGNED_OUT, signOutReason: reason });
      events.emit({ type: 'signedOut', reason });
    },
    refreshToken: (nextToken, tokenExpiresAt = Date.now() + 5 * 60_000) => {
      token = nextToken;
      store.set({ tokenExpiresAt });
      events.emit({ type: 'tokenRefreshed', tokenExpiresAt });
    },
  };
  return session;
}
