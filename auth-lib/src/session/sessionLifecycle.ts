import type { SessionSnapshot, SignOutReason } from '../types';
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

/**
 * The lifecycle half of KeycloakSession: the keycloak-js instance in use and its generations, starting
 * (check-sso, or seeded by another tab), signing in, ending. KeycloakSession adds the `Session` contract and
 * wires the collaborators (tokens, tabs, API views, watches) to these steps.
 */
export abstract class SessionLifecycle {
  readonly config: ResolvedConfig;
  protected readonly store = new SnapshotStore(LOADING_SNAPSHOT);
  protected readonly events = new EventEmitter();
  protected readonly factory: KeycloakFactory;
  protected readonly location: PageLocation;
  protected readonly verify: TokenVerifier;
  /** the browser's DPoP key and proofs (decisions/0110, 0112) */
  protected readonly dpop: Dpop;
  protected kc: KeycloakLike | null = null;
  /** increases with each keycloak-js instance; answers from an older one are ignored */
  protected generation = 0;
  /** SSO sessions (`sid`) this tab saw end: tokens of those never sign it in again */
  protected readonly endedSessions = new Set<string>();
  /** keycloak-js readied, behind the signed-in tab, for the tokens a live tab handed over */
  protected readonly seedCheck = new SeedCheck();
  /** the refresh token's `exp` (provider seconds) as the tab that holds it last said; this tab may hold none */
  protected sharedRefreshExpiresAt: number | null = null;
  /** a sign-in of this tab's own in progress (it held no refresh token when one was needed) */
  private signingInAgain: Promise<void> | null = null;
  /** a signed-out tab asking the provider because another tab said it signed in */
  private confirmingSignIn: Promise<void> | null = null;
  // made by the session around it, which needs this one's methods to make them
  protected tokens!: TokenManager;
  protected tabs: TabCoordinator | null = null;
  protected apis!: ApiViews;
  protected sessionCheck!: SessionCheckWatch;
  protected watch!: SessionWatch; // a session ended at the provider, noticed without the frame (decisions/0029)

  constructor(config: ResolvedConfig, deps: SessionDependencies) {
    this.config = config;
    this.factory = deps.keycloakFactory ?? loadKeycloak;
    this.location = deps.location ?? globalThis.location;
    this.dpop = new Dpop(`${config.url} ${config.realm} ${config.clientId}`, deps.dpop ?? {});
    // another tab's tokens work here only if bound to this browser's key (a tab without IndexedDB has a key of its own)
    this.verify = boundToThisBrowser(deps.verifyTokens ?? providerKeyVerifier(config), this.dpop);
  }

  abstract ready(): Promise<SessionSnapshot>;

  /**
   * Builds a fresh keycloak-js instance and initialises it once; called at creation, by retry(), and
   * (`quiet`, with a `seed`) when another tab signed in while this one was signed out.
   */
  protected async start(options: { seed?: TokenSet; quiet?: boolean } = {}): Promise<void> {
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
        this.sharedRefreshExpiresAt = seed.refreshExpiresAt;
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

  /**
   * This tab must refresh and holds no refresh token (the tab that seeded it, which held one, has closed):
   * a fresh keycloak-js instance does check-sso behind the signed-in page, as a page load does, and gets
   * tokens of this tab's own (decisions/0053). One at a time; resolves once it is over.
   */
  protected signInAgain(): Promise<void> {
    this.signingInAgain ??= this.signInOwn().finally(() => (this.signingInAgain = null));
    return this.signingInAgain;
  }

  private async signInOwn(): Promise<void> {
    const generation = this.generation;
    const kc = await checkSsoAgain(this.factory, this.config, currentPageUrl(this.location));
    if (generation !== this.generation || this.store.get().status !== 'authenticated') return kc.clearToken();
    if (!kc.token) return this.endAndDrop('session-ended');
    unwireKeycloak(this.kc);
    this.kc?.clearToken();
    this.kc = kc;
    this.wire(kc, ++this.generation);
    this.tokensChanged(kc);
    this.tabs?.shareTokens(kc);
  }

  /**
   * Another tab signed in (its tokens verified): this signed-out tab asks the provider itself, with a silent check-sso
   * in a fresh keycloak-js instance, and signs in with the provider's own tokens if the provider's session in this
   * browser lives. The other tab's tokens are never used to sign a signed-out tab in (issue 43, decisions/0108). Where
   * the provider's frames cannot run, no full-page round trip: the tab stays signed out until the visitor asks.
   */
  protected confirmSignIn(): void {
    this.confirmingSignIn ??= this.signInWithProvider()
      .catch(() => undefined)
      .finally(() => (this.confirmingSignIn = null));
  }

  private async signInWithProvider(): Promise<void> {
    const generation = this.generation;
    const kc = await checkSsoAgain(this.factory, this.config, currentPageUrl(this.location), { silentOnly: true });
    if (generation !== this.generation || this.store.get().status !== 'anonymous' || !kc.token) return kc.clearToken();
    unwireKeycloak(this.kc);
    this.kc = kc;
    this.seedCheck.forget();
    this.tokens.reset();
    this.sharedRefreshExpiresAt = null;
    this.wire(kc, ++this.generation);
    this.signIn(kc);
    this.tabs?.shareTokens(kc);
  }

  protected tokensChanged(kc: KeycloakLike): void {
    this.store.set(signedInSnapshot(kc));
    const { tokenExpiresAt } = this.store.get();
    if (tokenExpiresAt !== null) this.events.emit({ type: 'tokenRefreshed', tokenExpiresAt });
  }

  protected wire(kc: KeycloakLike, generation: number): void {
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
  protected sessionEnded(reason: 'session-ended' | 'refresh-refused'): void {
    if (reason === 'refresh-refused' && this.watch.inCheck) return this.watch.sessionEnded(); // the watch's check was refused
    if (reason === 'session-ended' && this.sessionCheck.takeRefused()) {
      console.warn(sessionCheckRefusedMessage(this.config, this.location.origin));
      this.end('session-check-refused');
    } else this.end(reason);
  }

  protected signIn(kc: KeycloakLike): void {
    this.store.set(signedInSnapshot(kc));
    const { user } = this.store.get();
    if (user) this.events.emit({ type: 'signedIn', user });
  }

  protected end(reason: SignOutReason): void {
    const { status, sessionId } = this.store.get();
    if (status !== 'authenticated') return;
    if (sessionId) this.endedSessions.add(sessionId);
    this.sharedRefreshExpiresAt = null;
    this.apis.clear();
    if (reason === 'refresh-refused') this.events.emit({ type: 'refreshFailed', reason: 'refused' });
    this.tokens.reset();
    this.store.set({ ...SIGNED_OUT, signOutReason: reason });
    this.events.emit({ type: 'signedOut', reason });
  }

  protected endAndDrop(reason: SignOutReason): void {
    this.end(reason);
    // drop the tokens from memory too; this also stops keycloak-js's login-status frame checks
    this.kc?.clearToken();
  }

  protected async liveKeycloak(): Promise<KeycloakLike> {
    await this.seedCheck.pending;
    if (!this.kc) throw this.store.get().error ?? unreachableError(this.config);
    return this.kc;
  }
}
