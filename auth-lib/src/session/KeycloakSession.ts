import { createAuthFetch } from '../authFetch';
import type { SessionDependencies } from './dependencies';
import type {
  ApiBinding,
  LoginOptions,
  LogoutOptions,
  Profile,
  Session,
  SessionEvent,
  SessionSnapshot,
  SignOutReason,
  TokenOptions,
} from '../types';
import { ApiViews } from './apis/apiViews';
import type { ResolvedConfig } from './config';
import { keycloakLoginOptions } from './keycloak/loginOptions';
import { defaultTabChannel } from './tabs/tabChannel';
import { loadProfile } from './profile';
import { heldClientRoles } from './roles';
import { sessionExpiryFor, type ExpiryHost, type SessionExpiry } from './tokens/sessionExpiry';
import { SessionCheckWatch } from './watch/frameRefusal';
import { isLoginCallback, unreachableError } from './sessionErrors';
import { SessionLifecycle, SessionState } from './sessionLifecycle';
import { pageUrl } from './keycloak/redirectUri';
import { TabCoordinator, type TabHost } from './tabs/tabCoordinator';
import { tabHostFor } from './tabs/tabHost';
import { defaultTabLocks } from './tabs/tabLeader';
import { TokenManager } from './tokens/tokenManager';
import { buildSessionWatch } from './watch/buildSessionWatch';
import type { SessionWatch } from './watch/sessionWatch';
import { EndProof } from './watch/endProof';
import { SessionEvents } from './watch/sessionEvents';
import { installProviderProofs, pageScopeOf, providerEndpoints } from './dpop/providerCalls';
import { adoptTokenSet, sessionDeadline } from './tokens/tokenSet';

/** How far in the future another tab's `activity` time may lie (the tabs share the clock). */
export const ACTIVITY_AHEAD_MS = 1000;

/** How long a seeded tab checking a claim that the session ended waits for a live tab's fresh tokens. */
export const VOUCH_WAIT_MS = 2000;

export type { PageLocation, SessionDependencies } from './dependencies';

/**
 * The page's session over one keycloak-js instance: turns keycloak-js's single callbacks and
 * instance fields into an external store plus events, and bounds every wait on the provider.
 * Build it through `createSession`, which keeps it one per page.
 */
export class KeycloakSession implements Session {
  readonly config: ResolvedConfig;
  readonly authFetch: Session['authFetch'];
  readonly api = null;
  /** what every part shares: the snapshot store, events, the page's place, the token checks, the DPoP key */
  private readonly state: SessionState;
  /** the keycloak-js instance and its generations: start, sign in, end */
  private readonly life: SessionLifecycle;
  private readonly tokens: TokenManager;
  private readonly tabs: TabCoordinator | null;
  private readonly apis: ApiViews;
  private readonly sessionCheck: SessionCheckWatch;
  private readonly watch: SessionWatch;
  private readonly expiry: SessionExpiry;
  private readonly endProof: EndProof;
  /** the session-events stream follows the lead (sessionEvents.ts); nothing without `config.sessionEvents` */
  private leadershipChanged: () => void = () => undefined;

  constructor(config: ResolvedConfig, deps: SessionDependencies = {}) {
    this.config = config;
    const state = (this.state = new SessionState(config, deps));
    const dpop = state.dpop;
    if (!deps.keycloakFactory) {
      // keycloak-js's own calls (code exchange, refreshes, user-info, account) with proofs of this browser's key, and the
      // page's own token without any API's audience (decisions/0112); a test's keycloak stand-in makes no such calls
      dpop.warm(isLoginCallback(state.location));
      installProviderProofs({
        ...providerEndpoints(config.url, config.realm),
        dpop,
        pageScope: pageScopeOf(
          config.scopes,
          (config.apis ?? []).map((api) => api.scope),
        ),
      });
    }
    this.tokens = new TokenManager({
      keycloak: () => this.life.kc,
      isSignedIn: () => this.state.store.get().status === 'authenticated',
      minValidity: config.minValidity,
      timeout: config.timeout,
      unreachable: () => unreachableError(this.config),
      unconfirmed: () => this.state.seedCheck.pending,
      onRefused: () => {
        this.life.end('refresh-refused');
        if (this.tabs?.isLeader) this.tabs.announceRefreshRefused();
      },
      refresh: (kc, minValidity) => this.apis.serial(() => (this.tabs ? this.tabs.refresh(kc, minValidity) : kc.updateToken(minValidity))),
      onUnreachable: () => this.state.events.emit({ type: 'refreshFailed', reason: 'unreachable' }),
      ...(deps.backoff ? { backoff: deps.backoff } : {}),
    });
    const tabChannel = deps.tabChannel === undefined ? defaultTabChannel : deps.tabChannel;
    const tabLocks = deps.tabLocks === undefined ? defaultTabLocks() : deps.tabLocks;
    this.tabs = tabChannel ? new TabCoordinator(tabChannel, tabLocks, this.tabHost(), () => this.leadershipChanged()) : null;
    this.apis = new ApiViews(this, {
      config,
      keycloak: () => this.life.kc,
      isSignedIn: () => this.state.store.get().status === 'authenticated',
      isLeader: () => this.tabs?.isLeader ?? true,
      sessionToken: () => this.getToken(),
      signInAgain: () => this.life.signInAgain(),
      send: (message) => this.tabs?.send(message),
      // as after a refresh of the session's own (wire's `refreshed`): the new deadline here and in the other tabs
      refreshTokenRenewed: () => {
        const kc = this.life.kc;
        if (!kc || this.state.store.get().status !== 'authenticated') return;
        this.life.tokensChanged(kc);
        this.expiry.reschedule(); // the snapshot may be the same (same access token): the deadline is not in it
        this.tabs?.shareTokens(kc);
      },
      verify: this.state.verify,
      refused: (reason) => this.state.events.emit({ type: 'tabMessageRefused', reason }),
      dpop,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      location: this.state.location,
      ...(deps.development === undefined ? {} : { development: deps.development }),
    });
    this.authFetch = createAuthFetch({
      getToken: (options) => this.getToken(options),
      trustedOrigins: config.trustedOrigins,
      location: this.state.location,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(deps.development === undefined ? {} : { development: deps.development }),
    });
    this.sessionCheck = new SessionCheckWatch(deps.window === undefined ? globalThis.window : deps.window, config.url);
    this.endProof = new EndProof({
      config,
      keycloak: () => this.life.kc,
      isSignedIn: () => this.state.store.get().status === 'authenticated',
      isLeader: () => this.tabs?.isLeader ?? true,
      refreshOwn: (kc) => this.apis.serial(() => kc.updateToken(-1)),
      askTabs: (kc) => (this.tabs ? this.tabs.vouch(kc, Math.min(VOUCH_WAIT_MS, config.timeout)) : Promise.resolve(false)),
      end: (reason) => this.life.endAndDrop(reason),
      refused: (reason) => this.state.events.emit({ type: 'tabMessageRefused', reason }),
    });
    const parts = {
      store: this.state.store,
      events: this.state.events,
      tabs: this.tabs,
      keycloak: () => this.life.kc,
      getToken: () => this.getToken(),
    };
    this.watch = buildSessionWatch({
      config,
      origin: this.state.location.origin,
      deps,
      ...parts,
      endAndDrop: () => this.life.endAndDrop('session-ended'),
      endIfProven: () => this.endProof.claim('session-ended', 'watch-session-ended'),
    });
    this.expiry = sessionExpiryFor(this.expiryHost(), config, deps);
    if (config.sessionEvents) this.subscribeToSessionEvents(config.sessionEvents.url, deps);
    this.life = new SessionLifecycle(state, {
      tokens: this.tokens,
      tabs: this.tabs,
      apis: this.apis,
      sessionCheck: this.sessionCheck,
      watch: this.watch,
      // a session that ends while another tab's claim that it ended is checked ends with the claim's reason
      endReason: (reason) => this.endProof.reasonFor(reason),
    });
    void this.life.start();
  }

  readonly getSnapshot = (): SessionSnapshot => this.state.store.get();
  readonly subscribe = (listener: () => void): (() => void) => this.state.store.subscribe(listener);
  readonly on = (listener: (event: SessionEvent) => void): (() => void) => this.state.events.on(listener);

  ready(): Promise<SessionSnapshot> {
    return this.state.store.settled();
  }

  retry(): Promise<SessionSnapshot> {
    if (this.state.store.get().status === 'error') void this.life.start();
    return this.ready();
  }

  readonly hasRealmRole = (role: string): boolean => this.state.store.get().realmRoles.includes(role);
  readonly hasClientRole = (clientId: string, role: string): boolean =>
    heldClientRoles(this.state.store.get().clientRoles, clientId).includes(role);
  readonly getToken = (options?: TokenOptions): Promise<string> => this.tokens.getToken(options);
  readonly forApi = (api: ApiBinding): Session => this.apis.forApi(api);

  async login(options: LoginOptions = {}): Promise<void> {
    const { pathname, search, hash } = this.state.location;
    const redirectUri = pageUrl(this.state.location.origin, options.redirectTo ?? `${pathname}${search}${hash}`, 'login');
    const passThrough = keycloakLoginOptions(options);
    const snapshot = await this.ready();
    if (snapshot.status === 'error' && snapshot.error) throw snapshot.error;
    await (await this.life.liveKeycloak()).login({ ...passThrough, redirectUri });
  }

  extend(): Promise<void> {
    return this.getToken({ forceRefresh: true }).then(() => undefined);
  }

  onBeforeSessionEnd(handler: () => unknown): () => void {
    return this.expiry.onBeforeSessionEnd(handler);
  }

  async logout(options: LogoutOptions = {}, reason: SignOutReason = 'user'): Promise<void> {
    const redirectUri = pageUrl(this.state.location.origin, options.redirectTo ?? '/', 'logout');
    await this.ready();
    // keycloak-js knows the provider's logout endpoint only once its init got that far
    await this.state.seedCheck.pending;
    const kc = this.life.kc;
    const signedIn = this.state.store.get().status === 'authenticated';
    this.tabs?.announceSignOut(reason === 'idle');
    this.life.end(reason);
    // keycloak-js still holds the ID token here, which it sends as id_token_hint so the provider
    // signs out without asking for confirmation; it then navigates away.
    if (signedIn && kc) await kc.logout({ redirectUri });
  }

  async loadProfile(): Promise<Profile> {
    await this.getToken();
    return loadProfile(await this.life.liveKeycloak(), this.config);
  }

  /**
   * The session-events stream (sessionEvents.ts), held by the leading tab while signed in: the service's word that the
   * session ended takes the session watch's path (ended here, `watch-session-ended` to the tabs, which prove it).
   */
  private subscribeToSessionEvents(url: string, deps: SessionDependencies): void {
    const { store } = this.state;
    const stream = new SessionEvents({
      url,
      isLeader: () => this.tabs?.isLeader ?? true,
      isSignedIn: () => store.get().status === 'authenticated',
      sessionId: () => store.get().sessionId,
      subject: () => store.get().user?.id ?? null,
      token: () => this.getToken(),
      authorization: (token, method, target) => this.state.dpop.authorization(token, method, target),
      fetch: deps.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      ended: () => this.watch.sessionEnded(),
    });
    store.subscribe(() => stream.sync());
    this.leadershipChanged = () => stream.sync();
  }

  /** What the tab coordinator may do with this session. */
  private tabHost(): TabHost {
    return tabHostFor({
      config: this.config,
      store: this.state.store,
      events: this.state.events,
      verify: this.state.verify,
      endedSessions: this.state.endedSessions,
      keycloak: () => this.life.kc,
      ready: () => this.ready(),
      confirming: () => this.state.seedCheck.pending,
      adopt: (kc, set) => {
        adoptTokenSet(kc, set);
        this.life.sharedRefreshExpiresAt = set.refreshExpiresAt;
        this.life.tokensChanged(kc);
        this.expiry.reschedule(); // the same access token with a later deadline leaves the snapshot as it was
      },
      confirmSignIn: () => this.life.confirmSignIn(),
      endAndDrop: (reason) => this.life.endAndDrop(reason),
      endIfProven: (reason, what) => this.endProof.claim(reason, what),
      inDoubt: () => this.endProof.inDoubt,
      signInAgain: () => this.life.signInAgain(),
      refreshForFollower: (force) => this.tokens.getToken({ forceRefresh: force }),
      receiveOther: (message) => {
        // a time from another tab no later than now (and a little): `at: 8.64e15` would keep every tab signed in
        if (message.type === 'activity' && typeof message.at === 'number' && Number.isFinite(message.at)) {
          this.expiry.activity(Math.min(message.at, Date.now() + ACTIVITY_AHEAD_MS), true);
        } else if (message.type.startsWith('watch-')) this.watch.receive(message);
        else if (message.type.startsWith('api-')) this.apis.receive(message);
      },
    });
  }

  private expiryHost(): ExpiryHost {
    return {
      getSnapshot: this.getSnapshot,
      subscribe: this.subscribe,
      providerDeadline: () => sessionDeadline(this.life.kc, this.life.sharedRefreshExpiresAt),
      setExpiresAt: (expiresAt) => this.state.store.set({ expiresAt }),
      emit: (event) => this.state.events.emit(event),
      signOut: (reason) => {
        const { pathname, search, hash } = this.state.location;
        if (reason === 'idle') return void this.logout({ redirectTo: `${pathname}${search}${hash}` }, 'idle');
        this.life.endAndDrop(reason);
      },
      shareActivity: (at) => this.tabs?.send({ type: 'activity', at }),
    };
  }
}
