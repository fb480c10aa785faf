import type { SignOutReason } from '../types';
import type { ApiViews } from './apis/apiViews';
import { checkSsoAgain } from './keycloak/checkSsoAgain';
import type { ResolvedConfig } from './config';
import type { PageLocation, SessionDependencies } from './dependencies';
import { initOptions } from './keycloak/initOptions';
import { loadKeycloak, type KeycloakFactory, type KeycloakLike } from './keycloak/keycloak';
import { unwireKeycloak, wireKeycloak } from './keycloak/keycloakCallbacks';
import { currentPageUrl } from './keycloak/redirectUri';
import { SeedCheck } from './tabs/seedCheck';
import type { SessionCheckWatch } from './watch/frameRefusal';
import { sessionCheckRefusedMessage } from './watch/frameRefusal';
import { initError, isLoginCallback, unreachableError } from './sessionErrors';
import type { SessionWatch } from './watch/sessionWatch';
import { LOADING_SNAPSHOT, SIGNED_OUT, signedInSnapshot } from './snapshot';
import { EventEmitter, SnapshotStore } from './store';
import type { TabCoordinator } from './tabs/tabCoordinator';
import type { TokenManager } from './tokens/tokenManager';
import type { TokenSet } from './tokens/tokenSet';
import { providerKeyVerifier, type TokenVerifier } from './tokens/tokenVerifier';
import { withTimeout } from './util/withTimeout';
import { Dpop, boundToThisBrowser } from './dpop/dpop';

/** What every part of a session shares: made first, before the parts and the lifecycle that use it. */
export class SessionState {
  readonly store = new SnapshotStore(LOADING_SNAPSHOT);
  readonly events = new EventEmitter();
  readonly factory: KeycloakFactory;
  readonly location: PageLocation;
  /** another tab's tokens, checked against the provider's keys and this browser's DPoP key */
  readonly verify: TokenVerifier;
  /** the browser's DPoP key and proofs (decisions/0110, 0112) */
  readonly dpop: Dpop;
  /** SSO sessions (`sid`) this tab saw end: tokens of those never sign it in again */
  readonly endedSessions = new Set<string>();
  /** keycloak-js readied, behind the signed-in tab, for the tokens a live tab handed over */
  readonly seedCheck = new SeedCheck();

  constructor(
    readonly config: ResolvedConfig,
    deps: SessionDependencies,
  ) {
    this.factory = deps.keycloakFactory ?? loadKeycloak;
    this.location = deps.location ?? globalThis.location;
    this.dpop = new Dpop(`${config.url} ${config.realm} ${config.clientId}`, deps.dpop ?? {});
    // another tab's tokens work here only if bound to this browser's key (a tab without IndexedDB has a key of its own)
    this.verify = boundToThisBrowser(deps.verifyTokens ?? providerKeyVerifier(config), this.dpop);
  }
}

/** What the lifecycle asks of the parts a session is composed of (KeycloakSession makes them). */
export interface LifecycleParts {
  readonly tokens: Pick<TokenManager, 'reset'>;
  readonly tabs: Pick<TabCoordinator, 'seed' | 'campaign' | 'shareTokens'> | null;
  readonly apis: Pick<ApiViews, 'clear'>;
  readonly sessionCheck: Pick<SessionCheckWatch, 'takeRefused'>;
  /** a session ended at the provider, noticed without the frame (decisions/0029) */
  readonly watch: Pick<SessionWatch, 'inCheck' | 'sessionEnded'>;
  /** the reason a session ends with: one ending while another tab's claim is checked ends with the claim's */
  endReason(reason: SignOutReason): SignOutReason;
}

/**
 * The session's lifecycle: the keycloak-js instance in use and its generations, starting (check-sso, or seeded by
 * another tab), signing in, ending. KeycloakSession composes it with the parts (tokens, tabs, API views, watches)
 * and the `Session` contract.
 */
export class SessionLifecycle {
  private kcInUse: KeycloakLike | null = null;
  /** increases with each keycloak-js instance; answers from an older one are ignored */
  private generation = 0;
  /** the refresh token's `exp` (provider seconds) as the tab that holds it last said; this tab may hold none */
  sharedRefreshExpiresAt: number | null = null;
  /** a sign-in of this tab's own in progress (it held no refresh token when one was needed) */
  private signingInAgain: Promise<void> | null = null;
  /** a signed-out tab asking the provider because another tab said it signed in */
  private confirmingSignIn: Promise<void> | null = null;

  constructor(
    private readonly state: SessionState,
    private readonly parts: LifecycleParts,
  ) {}

  /** The keycloak-js instance in use, or null before the first is made and between generations. */
  get kc(): KeycloakLike | null {
    return this.kcInUse;
  }

  private get config(): ResolvedConfig {
    return this.state.config;
  }

  private get store(): SnapshotStore {
    return this.state.store;
  }

  private get location(): PageLocation {
    return this.state.location;
  }

  /**
   * Builds a fresh keycloak-js instance and initialises it once; called at creation, by retry(), and
   * (`quiet`, with a `seed`) when another tab signed in while this one was signed out.
   */
  async start(options: { seed?: TokenSet; quiet?: boolean } = {}): Promise<void> {
    const generation = ++this.generation;
    unwireKeycloak(this.kc);
    this.kcInUse = null;
    this.state.seedCheck.forget();
    this.parts.tokens.reset();
    if (!options.quiet) this.store.set({ ...SIGNED_OUT, status: 'loading' }); // keeps signOutReason and sessionWatch
    try {
      const askTabs = !options.seed && this.parts.tabs && !isLoginCallback(this.location);
      const [kc, seed] = await Promise.all([
        withTimeout(
          Promise.resolve().then(() => this.state.factory(this.config)),
          this.config.timeout,
          () => unreachableError(this.config),
        ),
        options.seed ?? (askTabs ? this.parts.tabs!.seed() : null),
      ]);
      this.parts.tabs?.campaign();
      if (generation !== this.generation) return;
      this.kcInUse = kc;
      this.wire(kc, generation);
      if (seed) {
        this.sharedRefreshExpiresAt = seed.refreshExpiresAt;
        // signed in at once from a live tab's tokens; keycloak-js's init confirms them behind it (seedCheck.ts)
        this.state.seedCheck.start(kc, seed, initOptions(this.config, currentPageUrl(this.location), seed), this.config.timeout, {
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
        this.parts.tabs?.shareTokens(kc);
      } else this.store.set({ ...SIGNED_OUT });
    } catch (error) {
      if (generation !== this.generation) return;
      this.store.set({ ...SIGNED_OUT, status: 'error', error: initError(this.config, error, this.location.origin) });
    }
  }

  /**
   * This tab must refresh and holds no refresh token (the tab that seeded it, which held one, has closed):
   * a fresh keycloak-js instance does check-sso behind the signed-in page, as a page load does, and gets
   * tokens of this tab's own (decisions/0053). One at a time; resolves once it is over.
   */
  signInAgain(): Promise<void> {
    this.signingInAgain ??= this.signInOwn().finally(() => (this.signingInAgain = null));
    return this.signingInAgain;
  }

  private async signInOwn(): Promise<void> {
    const generation = this.generation;
    const kc = await checkSsoAgain(this.state.factory, this.config, currentPageUrl(this.location));
    if (generation !== this.generation || this.store.get().status !== 'authenticated') return kc.clearToken();
    if (!kc.token) return this.endAndDrop('session-ended');
    unwireKeycloak(this.kc);
    this.kc?.clearToken();
    this.kcInUse = kc;
    this.wire(kc, ++this.generation);
    this.tokensChanged(kc);
    this.parts.tabs?.shareTokens(kc);
  }

  /**
   * Another tab signed in (its tokens verified): this signed-out tab asks the provider itself, with a silent check-sso
   * in a fresh keycloak-js instance, and signs in with the provider's own tokens if the provider's session in this
   * browser lives. The other tab's tokens are never used to sign a signed-out tab in (decisions/0108). Where
   * the provider's frames cannot run, no full-page round trip: the tab stays signed out until the visitor asks.
   */
  confirmSignIn(): void {
    this.confirmingSignIn ??= this.signInWithProvider()
      .catch(() => undefined)
      .finally(() => (this.confirmingSignIn = null));
  }

  private async signInWithProvider(): Promise<void> {
    const generation = this.generation;
    const kc = await checkSsoAgain(this.state.factory, this.config, currentPageUrl(this.location), { silentOnly: true });
    if (generation !== this.generation || this.store.get().status !== 'anonymous' || !kc.token) return kc.clearToken();
    unwireKeycloak(this.kc);
    this.kcInUse = kc;
    this.state.seedCheck.forget();
    this.parts.tokens.reset();
    this.sharedRefreshExpiresAt = null;
    this.wire(kc, ++this.generation);
    this.signIn(kc);
    this.parts.tabs?.shareTokens(kc);
  }

  tokensChanged(kc: KeycloakLike): void {
    this.store.set(signedInSnapshot(kc));
    const { tokenExpiresAt } = this.store.get();
    if (tokenExpiresAt !== null) this.state.events.emit({ type: 'tokenRefreshed', tokenExpiresAt });
  }

  private wire(kc: KeycloakLike, generation: number): void {
    wireKeycloak(kc, {
      current: () => generation === this.generation && this.kc === kc,
      refreshed: () => {
        if (this.store.get().status !== 'authenticated') return;
        this.tokensChanged(kc);
        this.parts.tabs?.shareTokens(kc);
      },
      ended: (reason) => this.sessionEnded(reason),
    });
  }

  /** keycloak-js dropped the session (or never confirmed a seeded one); a frame check the provider refused says what to fix. */
  sessionEnded(reason: 'session-ended' | 'refresh-refused'): void {
    if (reason === 'refresh-refused' && this.parts.watch.inCheck) return this.parts.watch.sessionEnded(); // the watch's check was refused
    if (reason === 'session-ended' && this.parts.sessionCheck.takeRefused()) {
      console.warn(sessionCheckRefusedMessage(this.config, this.location.origin));
      this.end('session-check-refused');
    } else this.end(reason);
  }

  private signIn(kc: KeycloakLike): void {
    this.store.set(signedInSnapshot(kc));
    const { user } = this.store.get();
    if (user) this.state.events.emit({ type: 'signedIn', user });
  }

  end(ending: SignOutReason): void {
    const reason = this.parts.endReason(ending);
    const { status, sessionId } = this.store.get();
    if (status !== 'authenticated') return;
    if (sessionId) this.state.endedSessions.add(sessionId);
    this.sharedRefreshExpiresAt = null;
    this.parts.apis.clear();
    if (reason === 'refresh-refused') this.state.events.emit({ type: 'refreshFailed', reason: 'refused' });
    this.parts.tokens.reset();
    this.store.set({ ...SIGNED_OUT, signOutReason: reason });
    this.state.events.emit({ type: 'signedOut', reason });
  }

  endAndDrop(reason: SignOutReason): void {
    this.end(reason);
    // drop the tokens from memory too; this also stops keycloak-js's login-status frame checks
    this.kc?.clearToken();
  }

  async liveKeycloak(): Promise<KeycloakLike> {
    await this.state.seedCheck.pending;
    if (!this.kc) throw this.store.get().error ?? unreachableError(this.config);
    return this.kc;
  }
}
