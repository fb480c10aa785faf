/**
 * The auth contract shared by the Gatehouse shell and every remote.
 * Types only: the session core implements them, the React layer and remotes read them.
 */
import type { AuthError } from './errors';

/** Where the page's session is: `loading` until the identity provider has answered once. */
export type SessionStatus = 'loading' | 'authenticated' | 'anonymous' | 'error';

/** Why a session ended. */
export type SignOutReason =
  /** the visitor pressed sign out on this page */
  | 'user'
  /** the identity provider says the session is over (logout elsewhere, admin revocation, idle or max lifespan) */
  | 'session-ended'
  /** the provider refused to refresh the token (HTTP 400) */
  | 'refresh-refused'
  /** the visitor signed out in another tab of this origin */
  | 'other-tab'
  /**
   * the provider refused the login-status check for this page (its frame answered `error`): the page's
   * origin is not one of the client's web origins, or the client is disabled — a configuration to fix
   */
  | 'session-check-refused'
  /** no activity in any tab for `idleTimeoutMinutes`: signed out here and at the provider */
  | 'idle'
  /** the session reached its end (the provider's idle or maximum lifespan) without "Stay signed in" */
  | 'session-expired';

/** The signed-in person, as the access token names them. */
export interface User {
  /** the provider's subject id (`sub`) */
  readonly id: string;
  readonly username: string;
  /** full name; falls back to the username when the provider has none */
  readonly name: string;
  readonly email: string | null;
}

/** What `loadProfile()` returns: the account endpoint, with the ID token's claims where it leaves a field out. */
export interface Profile {
  readonly id: string;
  readonly username: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly email: string | null;
  readonly emailVerified: boolean;
}

/** An immutable picture of the session; a new object whenever anything in it changes. */
export interface SessionSnapshot {
  readonly status: SessionStatus;
  readonly user: User | null;
  readonly realmRoles: readonly string[];
  /** client id → roles of that client */
  readonly clientRoles: Readonly<Record<string, readonly string[]>>;
  /** epoch milliseconds at which the current access token expires */
  readonly tokenExpiresAt: number | null;
  /** epoch milliseconds at which the visitor signed in (the provider's `auth_time`) */
  readonly signedInAt: number | null;
  /** the provider's session id (`sid`) */
  readonly sessionId: string | null;
  /**
   * the level of authentication the provider vouches for (the token's `acr` claim): with Keycloak a name
   * of the realm's `acr.loa.map` such as `"gold"`, or a level number such as `"1"` (a password sign-in
   * without a map) or `"0"` (a session reused from another sign-in); `null` when signed out or absent
   */
  readonly acr: string | null;
  /** set when `status` is `error` */
  readonly error: AuthError | null;
  /** set when the visitor was signed out during this page's life */
  readonly signOutReason: SignOutReason | null;
  /**
   * epoch milliseconds at which the session ends unless extended: the refresh token's expiry (the provider's
   * SSO idle and max lifespan) or the idle deadline, whichever is first; the same in every tab
   */
  readonly expiresAt: number | null;
  /**
   * how this browser notices a session ended at the provider while the page sits idle: `frame` (keycloak-js's
   * login-status frame), `refresh` (the frame is unavailable — third-party cookies blocked — so the leading tab
   * asks the provider every `sessionWatchSeconds`), `none` (signed out, or the fallback is turned off)
   */
  readonly sessionWatch: SessionWatch;
}

/** How the session watches the provider for a session ended elsewhere (see `SessionSnapshot.sessionWatch`). */
export type SessionWatch = 'frame' | 'refresh' | 'none';

/** Events for listeners that care about transitions rather than state. */
export type SessionEvent =
  | { readonly type: 'signedIn'; readonly user: User }
  | { readonly type: 'tokenRefreshed'; readonly tokenExpiresAt: number }
  | { readonly type: 'refreshFailed'; readonly reason: RefreshFailure }
  | { readonly type: 'sessionExpiring'; readonly expiresAt: number }
  | { readonly type: 'signedOut'; readonly reason: SignOutReason }
  | { readonly type: 'sessionWatchChanged'; readonly watch: SessionWatch }
  | { readonly type: 'tabMessageRefused'; readonly reason: string };

/** Why a token refresh failed: the provider ended the session (HTTP 400), or it could not be reached in time. */
export type RefreshFailure = 'refused' | 'unreachable';

/**
 * How to sign in. Every field besides `redirectTo` passes through to keycloak-js's `login()` and becomes
 * a parameter of the provider's authorization URL.
 *
 * @example
 * session.login({ redirectTo: '/admin', acr: 'gold' });          // step-up: ask for a stronger sign-in
 * session.login({ loginHint: 'alice', locale: 'de' });           // prefilled username, German login page
 */
export interface LoginOptions {
  /** path (with search and hash) of this app to come back to after sign-in; defaults to the current one */
  readonly redirectTo?: string;
  /** the language of the provider's pages, e.g. `"de"` or `"de-CH fr"` (`ui_locales`) */
  readonly locale?: string;
  /** the username or email to prefill on the login form (`login_hint`) */
  readonly loginHint?: string;
  /** alias of the identity provider Keycloak should send the visitor to directly (`kc_idp_hint`) */
  readonly idpHint?: string;
  /**
   * the level of authentication the sign-in must reach, e.g. `"gold"` (a name of the realm's
   * `acr.loa.map`) or `"2"`: sent as an essential `acr` claim of the ID token in the `claims` parameter,
   * so the provider asks for the extra step (step-up) or fails, rather than returning a weaker sign-in
   */
  readonly acr?: string;
  /** `"login"`: ask for credentials even when a session exists; `"consent"`: ask for consent again; `"none"`: never show a page */
  readonly prompt?: 'none' | 'login' | 'consent';
}

export interface LogoutOptions {
  /** path of this app to land on after sign-out; defaults to `/` */
  readonly redirectTo?: string;
}

export interface TokenOptions {
  /** refresh even if the current token is still valid (e.g. an API answered 401) */
  readonly forceRefresh?: boolean;
}

/** What `createSession` accepts. Only `url`, `realm` and `clientId` are required. */
export interface SessionConfig {
  /** base URL of the identity provider, without `/realms/…`, e.g. `http://localhost:8080` */
  readonly url: string;
  readonly realm: string;
  readonly clientId: string;
  /** origins (besides the page's own) that `authFetch` may send the token to */
  readonly trustedOrigins?: readonly string[];
  /** the page keycloak-js loads in a hidden frame for silent check-sso; default `${origin}/silent-check-sso.html` */
  readonly silentCheckSsoRedirectUri?: string;
  /** seconds between login-status frame checks; default 5 */
  readonly checkLoginIframeInterval?: number;
  /** milliseconds keycloak-js waits for a frame message; default 10000 */
  readonly messageReceiveTimeout?: number;
  /** a token with fewer seconds than this left is refreshed before use; default 5 */
  readonly minValidity?: number;
  /** milliseconds any wait on the identity provider may take before it fails with `idp-unreachable`; default 10000 */
  readonly timeout?: number;
  /** seconds before the session ends at which `sessionExpiring` is emitted; default 60 */
  readonly expiryWarningSeconds?: number;
  /** sign out after this many minutes without activity in any tab; default 0 (never) */
  readonly idleTimeoutMinutes?: number;
  /**
   * seconds between the leading tab's checks of the session at the provider, with or without the login-status
   * frame, while a visitor uses the page (input in any tab since the last check); default 15, 0 turns the checks off
   */
  readonly sessionWatchSeconds?: number;
  /**
   * seconds between those checks while a visible page goes unused (no input in any tab since the last check);
   * default 240, so a session ended at the provider is noticed by an unused page within 5 minutes (decisions/0090).
   * Never shorter than `sessionWatchSeconds`.
   */
  readonly sessionWatchIdleSeconds?: number;
  /**
   * extra scopes to sign in with besides `openid` (keycloak-js's `scope`): the shell passes `role-audiences` and the
   * scope of every API the registry names, so each API's token can be obtained by a downscoped refresh later
   * (a refresh can only narrow what the sign-in granted; decisions/0054)
   */
  readonly scopes?: readonly string[];
  /**
   * the APIs the registry names (each remote's `api`): the leading tab gets API tokens for other tabs only for these
   * (decisions/0108). The shell passes config.json's list; without it a tab serves the APIs its own page bound with
   * `forApi`.
   */
  readonly apis?: readonly ApiBinding[];
  /**
   * the session-events service (session-events/README.md): `url` is its public URL (its `--public-url`); the leading
   * tab holds one stream from `{url}/events` for the browser and ends the session when the service says it ended at
   * the provider (back-channel logout). Absent: off, and the session watch's checks alone notice an ended session.
   */
  readonly sessionEvents?: SessionEventsConfig;
}

/** Where the session-events service is (`SessionConfig.sessionEvents`). */
export interface SessionEventsConfig {
  /** the service's URL as browsers call it, e.g. `https://events.example.com` (no query, no fragment) */
  readonly url: string;
}

/**
 * An API a remote calls (its registry entry's `api`): its tokens have `audience` alone, obtained with `scope`,
 * and go only to addresses under `url`.
 */
export interface ApiBinding {
  /** the API's base address; the API's token goes to this address and those under it, nowhere else */
  readonly url: string;
  /** the `aud` the API requires, e.g. `profile-api` */
  readonly audience: string;
  /** the client scope (with an audience mapper for `audience`) that grants it, e.g. `profile-api` */
  readonly scope: string;
}

/** The page's one session. Create it with `createSession`; read it with `getSession` or the React hooks. */
export interface Session {
  /** the validated configuration, defaults filled in */
  readonly config: Readonly<Required<Omit<SessionConfig, 'trustedOrigins' | 'scopes' | 'apis' | 'sessionEvents'>>> & {
    readonly trustedOrigins: readonly string[];
    readonly scopes: readonly string[];
    /** the registry's APIs, or null when the session was given none */
    readonly apis: readonly ApiBinding[] | null;
    /** the session-events service, or null (off) */
    readonly sessionEvents: SessionEventsConfig | null;
  };
  /**
   * The API this view of the session is for (`forApi`), or null for the page's session. In a view, `getToken()`,
   * `authFetch()` and `useToken()` use a token for this API alone, and `authFetch` sends it only under `api.url`.
   */
  readonly api: ApiBinding | null;
  /**
   * This session as one API's caller: the same user, state and sign-in, with tokens whose audience is that API
   * alone (a downscoped refresh; decisions/0054). The shell gives each remote whose registry entry names an `api`
   * such a view (through `<AuthProvider>` around its slot); the same binding returns the same view.
   */
  forApi(api: ApiBinding): Session;
  /** the current snapshot (stable identity until something changes: safe for `useSyncExternalStore`) */
  getSnapshot(): SessionSnapshot;
  /** calls `listener` after every snapshot change; returns the unsubscribe function */
  subscribe(listener: () => void): () => void;
  /** calls `listener` on each session event; returns the unsubscribe function */
  on(listener: (event: SessionEvent) => void): () => void;
  /** resolves once the session has left `loading` (to any state) */
  ready(): Promise<SessionSnapshot>;
  /** after `error` (e.g. provider unreachable): try to reach the provider again */
  retry(): Promise<SessionSnapshot>;
  hasRealmRole(role: string): boolean;
  hasClientRole(clientId: string, role: string): boolean;
  /** an access token valid for at least `minValidity` seconds; one refresh at a time for the whole page */
  getToken(options?: TokenOptions): Promise<string>;
  /** `fetch` with the bearer token for trusted origins; refreshes and retries once on 401 */
  authFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** navigates to the provider's sign-in page; the visitor comes back to `redirectTo` */
  login(options?: LoginOptions): Promise<void>;
  /** ends the session at the provider and in every tab of this origin */
  logout(options?: LogoutOptions): Promise<void>;
  /** reads the user-info and account endpoints */
  loadProfile(): Promise<Profile>;
  /** "Stay signed in": a refresh (through the leading tab), which moves `expiresAt` in every tab */
  extend(): Promise<void>;
  /**
   * Runs `handler` shortly before the session ends (expiry or idle sign-out); every handler gets its chance,
   * together bounded by a few seconds. Returns the unregister function.
   */
  onBeforeSessionEnd(handler: () => unknown): () => void;
}
