import { createAuthFetch } from '../authFetch';
import type { PageLocation, SessionDependencies } from './dependencies';
import type { LoginOptions, LogoutOptions, Profile, Session, SessionEvent, SessionSnapshot, SignOutReason, TokenOptions } from '../types';
import type { ResolvedConfig } from './config';
import { initOptions } from './initOptions';
import { keycloakLoginOptions } from './loginOptions';
import { loadKeycloak, type KeycloakFactory, type KeycloakLike } from './keycloak';
import { unwireKeycloak, wireKeycloak } from './keycloakCallbacks';
import { defaultTabChannel } from './otherTabs';
import { loadProfile } from './profile';
import { heldClientRoles } from './roles';
import { SeedCheck } from './seedCheck';
import { sessionExpiryFor, type ExpiryHost, type SessionExpiry } from './sessionExpiry';
import { SessionCheckWatch, sessionCheckRefusedMessage } from './sessionCheck';
import type { SessionWatch } from './sessionWatch';
import { initError, isLoginCallback, unreachableError } from './sessionErrors';
import { currentPageUrl, pageUrl } from './redirectUri';
import { LOADING_SNAPSHOT, SIGNED_OUT, signedInSnapshot } from './snapshot';
import { EventEmitter, SnapshotStore } from './store';
import { TabCoordinator, type TabHost } from './tabCoordinator';
import { defaultTabLocks } from './tabLeader';
import { TokenManager } from './tokenManager';
import { watchSession } from './watchSession';
import { adoptTokenSet, decodeClaims, expiryOf, readTokenSet, replacesCurrent, seedProblem, type TokenSet } from './tokenSet';
import { withTimeout } from './withTimeout';

export type { PageLocation, SessionDependencies } from './dependencies';

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
  private readonly tabs: TabCoordinator | null;
  private readonly factory: KeycloakFactory;
  private readonly location: PageLocation;
  private kc: KeycloakLike | null = null;
  /** increases with each keycloak-js instance; answers from an older one are ignored */
  private generation = 0;
  private readonly sessionCheck: SessionCheckWatch;
  private readonly expiry: SessionExpiry;
  /** SSO sessions (`sid`) this tab saw end: tokens of those never sign it in again */
  private readonly endedSessions = new Set<string>();
  /** keycloak-js confirming, behind the signed-in tab, the tokens a live tab handed over */
  private readonly seedCheck = new SeedCheck();
  private readonly watch: SessionWatch; // a session ended at the provider, noticed without the frame (decisions/0029)

  constructor(config: ResolvedConfig, deps: SessionDependencies = {}) {
    this.config = config;
    this.factory = deps.keycloakFactory ?? loadKeycloak;
    this.location = deps.location ?? globalThis.location;
    this.tokens = new TokenManager({
      keycloak: () => this.kc,
      isSignedIn: () => this.store.get().status === 'authenticated',
      minValidity: config.minValidity,
      timeout: config.timeout,
      unreachable: () => unreachableError(this.config),
      unconfirmed: () => this.seedCheck.pending,
      onRefused: () => {
        this.end('refresh-refused');
        if (this.tabs?.isLeader) this.tabs.announceRefreshRefused();
      },
      refresh: (kc, minValidity) => (this.tabs ? this.tabs.refresh(kc, minValidity) : kc.updateToken(minValidity)),
      onUnreachable: () => this.events.emit({ type: 'refreshFailed', reason: 'unreachable' }),
      ...(deps.backoff ? { backoff: deps.backoff } : {}),
    });
    const tabChannel = deps.tabChannel === undefined ? defaultTabChannel : deps.tabChannel;
    const tabLocks = deps.tabLocks === undefined ? defaultTabLocks() : deps.tabLocks;
    this.tabs = tabChannel ? new TabCoordinator(tabChannel, tabLocks, this.tabHost()) : null;
    this.authFetch = createAuthFetch({
      getToken: (options) => this.getToken(options),
      trustedOrigins: config.trustedOrigins,
      location: this.location,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(deps.development === undefined ? {} : { development: deps.development }),
    });
    this.sessionCheck = new SessionCheckWatch(deps.window === undefined ? globalThis.window : deps.window, config.url);
    const parts = { store: this.store, events: this.events, tabs: this.tabs, keycloak: () => this.kc, getToken: () => this.getToken() };
    this.watch = watchSession({ config, origin: this.location.origin, deps, ...parts, endAndDrop: () => this.endAndDrop('session-ended') });
    this.expiry = sessionExpiryFor(this.expiryHost(), config, deps);
    void this.start();
  }

  readonly getSnapshot = (): SessionSnapshot => this.store.get();
  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);
  readonly on = (listener: (event: SessionEvent) => void): (() => void) => this.events.on(listener);

  ready(): Promise<SessionSnapshot> {
    return this.store.settled();
  }

  retry(): Promise<SessionSnapshot> {
    if (this.store.get().status === 'error') void this.start();
    return this.ready();
  }

  readonly hasRealmRole = (role: string): boolean => this.store.get().realmRoles.includes(role);
  readonly hasClientRole = (clientId: string, role: string): boolean =>
    heldClientRoles(this.store.get().clientRoles, clientId).includes(role);
  readonly getToken = (options?: TokenOptions): Promise<string> => this.tokens.getToken(options);

  async login(options: LoginOptions = {}): Promise<void> {
    const { pathname, search, hash } = this.location;
    const redirectUri = pageUrl(this.location.origin, options.redirectTo ?? `${pathname}${search}${hash}`, 'login');
    const passThrough = keycloakLoginOptions(options);
    const snapshot = await this.ready();
    if (snapshot.status === 'error' && snapshot.error) throw snapshot.error;
    await (await this.liveKeycloak()).login({ ...passThrough, redirectUri });
  }

  extend(): Promise<void> {
    return this.getToken({ forceRefresh: true }).then(() => undefined);
  }

  onBeforeSessionEnd(handler: () => unknown): () => void {
    return this.expiry.onBeforeSessionEnd(handler);
  }

  async logout(options: LogoutOptions = {}, reason: SignOutReason = 'user'): Promise<void> {
    const redirectUri = pageUrl(this.location.origin, options.redirectTo ?? '/', 'logout');
    await this.ready();
    // keycloak-js knows the provider's logout endpoint only once its init got that far
    await this.seedCheck.pending;
    const kc = this.kc;
    const signedIn = this.store.get().status === 'authenticated';
    this.tabs?.announceSignOut(reason === 'idle');
    this.end(reason);
    // keycloak-js still holds the ID token here, which it sends as id_token_hint so the provider
    // signs out without asking for confirmation; it then navigates away.
    if (signedIn && kc) await kc.logout({ redirectUri });
  }

  async loadProfile(): Promise<Profile> {
    await this.getToken();
    return loadProfile(await this.liveKeycloak(), this.config);
  }

  /**
   * Builds a fresh keycloak-js instance and initialises it once; called at creation, by retry(), and
   * (`quiet`, with a `seed`) when another tab signed in while this one was signed out.
   */
  private async start(options: { seed?: TokenSet; quiet?: boolean } = {}): Promise<void> {
    const generation = ++this.generation;
    unwireKeycloak(this.kc);
    this.kc = null;
    this.seedCheck.forget();
    this.tokens.reset();
    if (!options.quiet) this.store.set({ ...SIGNED_OUT, status: 'loading' }); // keeps signOutReason and sessionWatch
    try {
      const askTabs = !options.seed && this.tabs && !isLoginCallback(this.location);
      const [kc, seed] = await Promise.all([
        withTimeout(
          Promise.resolve().then(() => this.factory(this.config)),
          this.config.timeout,
          () => unreachableError(this.config),
        ),
        options.seed ?? (askTabs ? this.tabs!.seed() : null),
      ]);
      this.tabs?.campaign();
      if (generation !== this.generation) return;
      this.kc = kc;
      this.wire(kc, generation);
      if (seed) {
        // signed in at once from a live tab's tokens; keycloak-js's init confirms them behind it (seedCheck.ts)
        this.seedCheck.start(kc, seed, initOptions(this.config, currentPageUrl(this.location), seed), this.config.timeout, {
          current: () => generation === this.generation && this.kc === kc && this.store.get().status === 'authenticated',
          ended: () => this.sessionEnded('session-ended'),
        });
        return this.signIn(kc);
      }
      const authenticated = await withTimeout(kc.init(initOptions(this.config, currentPageUrl(this.location))), this.config.timeout, () =>
        unreachableError(this.config),
      );
      if (generation !== this.generation) return;
      if (authenticated && kc.token) {
        this.signIn(kc);
        // tokens this tab got itself (sign-in, check-sso) sign the other tabs in or bring them up to date
        this.tabs?.shareTokens(kc);
      } else this.store.set({ ...SIGNED_OUT });
    } catch (error) {
      if (generation !== this.generation) return;
      this.store.set({ ...SIGNED_OUT, status: 'error', error: initError(this.config, error, this.location.origin) });
    }
  }

  /** What the tab coordinator may do with this session. */
  private tabHost(): TabHost {
    return {
      config: this.config,
      keycloak: () => this.kc,
      isSignedIn: () => this.store.get().status === 'authenticated',
      settled: () => this.ready(),
      receiveTokens: (set) => this.receiveTokens(set),
      signedOutElsewhere: (idle) => this.endAndDrop(idle ? 'idle' : 'other-tab'),
      refreshRefusedElsewhere: () => this.endAndDrop('refresh-refused'),
      refreshForFollower: (force) => this.tokens.getToken({ forceRefresh: force }),
      receiveOther: (message) => {
        if (message.type === 'activity' && typeof message.at === 'number') this.expiry.activity(message.at, true);
        else if (message.type.startsWith('watch-')) this.watch.receive(message);
      },
    };
  }

  private expiryHost(): ExpiryHost {
    return {
      getSnapshot: this.getSnapshot,
      subscribe: this.subscribe,
      providerDeadline: () => expiryOf(this.kc?.refreshToken, this.kc?.timeSkew),
      setExpiresAt: (expiresAt) => this.store.set({ expiresAt }),
      emit: (event) => this.events.emit(event),
      signOut: (reason) => {
        const { pathname, search, hash } = this.location;
        if (reason === 'idle') return void this.logout({ redirectTo: `${pathname}${search}${hash}` }, 'idle');
        this.endAndDrop(reason);
      },
      shareActivity: (at) => this.tabs?.send({ type: 'activity', at }),
    };
  }

  /** Tokens from another tab: newer ones replace this tab's; a signed-out tab is signed in with them. */
  private receiveTokens(set: TokenSet): void {
    // tokens that arrive while the seeded ones are being confirmed are taken once keycloak-js holds the session
    if (this.seedCheck.pending) return void this.seedCheck.pending.then(() => this.receiveTokens(set));
    const { status } = this.store.get();
    const kc = this.kc;
    if (status === 'authenticated' && kc) {
      // only newer tokens of this tab's own session (user, SSO session, issuer, client) are adopted
      if (!replacesCurrent(set, readTokenSet(kc), this.config)) return;
      adoptTokenSet(kc, set);
      this.tokensChanged(kc);
    } else if (status === 'anonymous' && seedProblem(set, this.config, Date.now()) === null) {
      const sid = decodeClaims(set.token)?.sid;
      if (typeof sid === 'string' && this.endedSessions.has(sid)) return;
      void this.start({ seed: set, quiet: true });
    }
  }

  private tokensChanged(kc: KeycloakLike): void {
    this.store.set(signedInSnapshot(kc));
    const { tokenExpiresAt } = this.store.get();
    if (tokenExpiresAt !== null) this.events.emit({ type: 'tokenRefreshed', tokenExpiresAt });
  }

  private wire(kc: KeycloakLike, generation: number): void {
    wireKeycloak(kc, {
      current: () => generation === this.generation && this.kc === kc,
      refreshed: () => {
        if (this.store.get().status !== 'authenticated') return;
        this.tokensChanged(kc);
        this.tabs?.shareTokens(kc);
      },
      ended: (reason) => this.sessionEnded(reason),
    });
  }

  /** keycloak-js dropped the session (or never confirmed a seeded one); a frame check the provider refused says what to fix. */
  private sessionEnded(reason: 'session-ended' | 'refresh-refused'): void {
    if (reason === 'refresh-refused' && this.watch.inCheck) return this.watch.sessionEnded(); // the watch's check was refused
    if (reason === 'session-ended' && this.sessionCheck.takeRefused()) {
      console.warn(sessionCheckRefusedMessage(this.config, this.location.origin));
      this.end('session-check-refused');
    } else this.end(reason);
  }

  private signIn(kc: KeycloakLike): void {
    this.store.set(signedInSnapshot(kc));
    const { user } = this.store.get();
    if (user) this.events.emit({ type: 'signedIn', user });
  }

  private end(reason: SignOutReason): void {
    const { status, sessionId } = this.store.get();
    if (status !== 'authenticated') return;
    if (sessionId) this.endedSessions.add(sessionId);
    if (reason === 'refresh-refused') this.events.emit({ type: 'refreshFailed', reason: 'refused' });
    this.tokens.reset();
    this.store.set({ ...SIGNED_OUT, signOutReason: reason });
    this.events.emit({ type: 'signedOut', reason });
  }

  private endAndDrop(reason: SignOutReason): void {
    this.end(reason);
    // drop the tokens from memory too; this also stops keycloak-js's login-status frame checks
    this.kc?.clearToken();
  }

  private async liveKeycloak(): Promise<KeycloakLike> {
    await this.seedCheck.pending;
    if (!this.kc) throw this.store.get().error ?? unreachableError(this.config);
    return this.kc;
  }
}
