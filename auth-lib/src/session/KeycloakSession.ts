import { createAuthFetch } from '../authFetch';
import { AuthError } from '../errors';
import type { LoginOptions, LogoutOptions, Profile, Session, SessionEvent, SessionSnapshot, SignOutReason, TokenOptions } from '../types';
import type { ResolvedConfig } from './config';
import { initOptions } from './initOptions';
import { loadKeycloak, type KeycloakFactory, type KeycloakLike } from './keycloak';
import { defaultTabChannel, OtherTabs, type TabChannelFactory } from './otherTabs';
import { mergeProfile } from './profile';
import { SessionCheckWatch, sessionCheckRefusedMessage, type MessageTarget } from './sessionCheck';
import { describeError, protocolErrorOf } from './scrub';
import { LOADING_SNAPSHOT, SIGNED_OUT, signedInSnapshot } from './snapshot';
import { EventEmitter, SnapshotStore } from './store';
import { TokenManager, type BackoffSettings } from './tokenManager';
import { withTimeout } from './withTimeout';

/** The address parts of the page the session needs. */
export type PageLocation = Pick<Location, 'origin' | 'href' | 'pathname' | 'search' | 'hash'>;

/** Collaborators of a session; every one has a browser default and exists so tests can pass fakes. */
export interface SessionDependencies {
  /** builds the keycloak-js instance; default loads keycloak-js */
  readonly keycloakFactory?: KeycloakFactory;
  /** channel to the page's other tabs; default `BroadcastChannel`, `null` to turn it off */
  readonly tabChannel?: TabChannelFactory | null;
  /** used by `authFetch`; default the global `fetch` */
  readonly fetch?: typeof fetch;
  readonly location?: PageLocation;
  /** where the provider's login-status frame posts its answers; default the page's window, `null` to not listen */
  readonly window?: MessageTarget | null;
  /** whether `authFetch` warns about untrusted origins; default: not a production build */
  readonly development?: boolean;
  readonly backoff?: BackoffSettings;
}

/**
 * The page's session over one keycloak-js instance: turns keycloak-js's single callbacks and
 * instance fields into an external store plus events, and bounds every wait on the provider.
 * Build it through `createSession`, which keeps it one per page.
 */
export class KeycloakSession implements Session {
  readonly config: ResolvedConfig;
  readonly authFetch: Session['authFetch'];
  private readonly store = new SnapshotStore(LOADING_SNAPSHOT);
  private readonly events = new EventEmitter();
  private readonly tokens: TokenManager;
  private readonly otherTabs: OtherTabs | null;
  private readonly factory: KeycloakFactory;
  private readonly location: PageLocation;
  private kc: KeycloakLike | null = null;
  /** increases with each keycloak-js instance; answers from an older one are ignored */
  private generation = 0;
  /** keycloak-js fired onAuthLogout; whether onAuthRefreshError follows decides the reason */
  private logoutPending = false;
  private readonly sessionCheck: SessionCheckWatch;

  constructor(config: ResolvedConfig, deps: SessionDependencies = {}) {
    this.config = config;
    this.factory = deps.keycloakFactory ?? loadKeycloak;
    this.location = deps.location ?? globalThis.location;
    this.tokens = new TokenManager({
      keycloak: () => this.kc,
      isSignedIn: () => this.store.get().status === 'authenticated',
      minValidity: config.minValidity,
      timeout: config.timeout,
      unreachable: () => this.unreachable(),
      onRefused: () => this.end('refresh-refused'),
      ...(deps.backoff ? { backoff: deps.backoff } : {}),
    });
    const tabChannel = deps.tabChannel === undefined ? defaultTabChannel : deps.tabChannel;
    this.otherTabs = tabChannel
      ? new OtherTabs(tabChannel, config.realm, config.clientId, () => this.signedOutElsewhere())
      : null;
    this.authFetch = createAuthFetch({
      getToken: (options) => this.getToken(options),
      trustedOrigins: config.trustedOrigins,
      location: this.location,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(deps.development === undefined ? {} : { development: deps.development }),
    });
    this.sessionCheck = new SessionCheckWatch(deps.window === undefined ? globalThis.window : deps.window, config.url);
    void this.start();
  }

  readonly getSnapshot = (): SessionSnapshot => this.store.get();
  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);
  readonly on = (listener: (event: SessionEvent) => void): (() => void) => this.events.on(listener);

  ready(): Promise<SessionSnapshot> {
    const current = this.store.get();
    if (current.status !== 'loading') return Promise.resolve(current);
    return new Promise((resolve) => {
      const unsubscribe = this.store.subscribe(() => {
        const next = this.store.get();
        if (next.status === 'loading') return;
        unsubscribe();
        resolve(next);
      });
    });
  }

  retry(): Promise<SessionSnapshot> {
    if (this.store.get().status === 'error') void this.start();
    return this.ready();
  }

  hasRealmRole(role: string): boolean {
    return this.store.get().realmRoles.includes(role);
  }

  hasClientRole(clientId: string, role: string): boolean {
    return this.store.get().clientRoles[clientId]?.includes(role) ?? false;
  }

  getToken(options?: TokenOptions): Promise<string> {
    return this.tokens.getToken(options);
  }

  async login(options: LoginOptions = {}): Promise<void> {
    const { pathname, search, hash } = this.location;
    const redirectUri = this.pageUrl(options.redirectTo ?? `${pathname}${search}${hash}`, 'login');
    const snapshot = await this.ready();
    if (snapshot.status === 'error' && snapshot.error) throw snapshot.error;
    await this.liveKeycloak().login({ redirectUri });
  }

  async logout(options: LogoutOptions = {}): Promise<void> {
    const redirectUri = this.pageUrl(options.redirectTo ?? '/', 'logout');
    await this.ready();
    const kc = this.kc;
    const signedIn = this.store.get().status === 'authenticated';
    this.otherTabs?.announceSignOut();
    this.end('user');
    // keycloak-js still holds the ID token here, which it sends as id_token_hint so the provider
    // signs out without asking for confirmation; it then navigates away.
    if (signedIn && kc) await kc.logout({ redirectUri });
  }

  async loadProfile(): Promise<Profile> {
    await this.getToken();
    const kc = this.liveKeycloak();
    try {
      const [userInfo, account] = await withTimeout(
        Promise.all([kc.loadUserInfo(), kc.loadUserProfile()]),
        this.config.timeout,
        () => this.unreachable(),
      );
      return mergeProfile({ ...userInfo }, { ...account });
    } catch (error) {
      if (error instanceof AuthError) throw error;
      throw new AuthError(
        'idp-unreachable',
        `Could not load the profile from the identity provider at ${this.config.url} (${describeError(error)}). ` +
          `The account endpoint needs the account client's view-profile role (give users default-roles-${this.config.realm}).`,
        { cause: error },
      );
    }
  }

  /** Builds a fresh keycloak-js instance and initialises it once; called at creation and by retry(). */
  private async start(): Promise<void> {
    const generation = ++this.generation;
    this.retire(this.kc);
    this.kc = null;
    this.tokens.reset();
    this.store.set({ ...LOADING_SNAPSHOT, signOutReason: this.store.get().signOutReason });
    try {
      const kc = await withTimeout(
        Promise.resolve().then(() => this.factory(this.config)),
        this.config.timeout,
        () => this.unreachable(),
      );
      if (generation !== this.generation) return;
      this.kc = kc;
      this.wire(kc, generation);
      const authenticated = await withTimeout(kc.init(initOptions(this.config)), this.config.timeout, () => this.unreachable());
      if (generation !== this.generation) return;
      if (authenticated && kc.token) this.signIn(kc);
      else this.store.set({ ...SIGNED_OUT });
    } catch (error) {
      if (generation !== this.generation) return;
      this.store.set({ ...SIGNED_OUT, status: 'error', error: this.initError(error) });
    }
  }

  private wire(kc: KeycloakLike, generation: number): void {
    const current = () => generation === this.generation && this.kc === kc;
    kc.onAuthRefreshSuccess = () => {
      if (!current() || this.store.get().status !== 'authenticated') return;
      this.store.set(signedInSnapshot(kc));
      const { tokenExpiresAt } = this.store.get();
      if (tokenExpiresAt !== null) this.events.emit({ type: 'tokenRefreshed', tokenExpiresAt });
    };
    // keycloak-js calls onAuthLogout both when the login-status frame reports a change and when a
    // refresh got HTTP 400 (then onAuthRefreshError follows in the same tick): wait a microtask to tell.
    kc.onAuthLogout = () => {
      if (!current()) return;
      this.logoutPending = true;
      queueMicrotask(() => {
        if (!this.logoutPending) return;
        this.logoutPending = false;
        if (this.sessionCheck.takeRefused()) {
          console.warn(sessionCheckRefusedMessage(this.config, this.location.origin));
          this.end('session-check-refused');
        } else {
          this.end('session-ended');
        }
      });
    };
    kc.onAuthRefreshError = () => {
      if (!current() || !this.logoutPending) return;
      this.logoutPending = false;
      this.end('refresh-refused');
    };
  }

  /** An instance being replaced may still answer later; it must not change this session. */
  private retire(kc: KeycloakLike | null): void {
    if (!kc) return;
    kc.onAuthRefreshSuccess = undefined;
    kc.onAuthLogout = undefined;
    kc.onAuthRefreshError = undefined;
  }

  private signIn(kc: KeycloakLike): void {
    this.store.set(signedInSnapshot(kc));
    const { user } = this.store.get();
    if (user) this.events.emit({ type: 'signedIn', user });
  }

  private end(reason: SignOutReason): void {
    if (this.store.get().status !== 'authenticated') return;
    this.tokens.reset();
    this.store.set({ ...SIGNED_OUT, signOutReason: reason });
    this.events.emit({ type: 'signedOut', reason });
  }

  private signedOutElsewhere(): void {
    this.end('other-tab');
    // drop the tokens from memory too; this also stops keycloak-js's login-status frame checks
    this.kc?.clearToken();
  }

  private liveKeycloak(): KeycloakLike {
    if (!this.kc) throw this.store.get().error ?? this.unreachable();
    return this.kc;
  }

  /** Only paths of this app: an absolute or protocol-relative URL here would be an open redirect. */
  private pageUrl(path: string, method: 'login' | 'logout'): string {
    if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) {
      throw new AuthError(
        'invalid-argument',
        `${method}({ redirectTo: ${JSON.stringify(path)} }): redirectTo must be a path of this app starting with "/", e.g. "/reports".`,
      );
    }
    return `${this.location.origin}${path}`;
  }

  private unreachable(): AuthError {
    return new AuthError(
      'idp-unreachable',
      `The identity provider at ${this.config.url} did not answer within ${this.config.timeout} ms. ` +
        `Check that it runs and that the URL in config.json is right; session.retry() tries again.`,
    );
  }

  private initError(error: unknown): AuthError {
    if (error instanceof AuthError) return error;
    const isCallbackError = typeof error === 'object' && error !== null && 'error' in error;
    if (isCallbackError || (error instanceof Error && /nonce/i.test(error.message))) {
      return new AuthError(
        'login-failed',
        `The identity provider refused the sign-in (${describeError(error)}). Sign in again; if it keeps failing, check the client "${this.config.clientId}" and its redirect URIs.`,
        { cause: error, protocol: protocolErrorOf(error) },
      );
    }
    return new AuthError(
      'idp-unreachable',
      `Could not reach the identity provider at ${this.config.url} (${describeError(error)}). ` +
        `Check that it runs and that the URL in config.json is right; session.retry() tries again.`,
      { cause: error },
    );
  }
}
