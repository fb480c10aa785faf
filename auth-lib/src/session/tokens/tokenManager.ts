import { AuthError } from '../../errors';
import type { KeycloakLike } from '../keycloak/keycloak';
import { describeError } from '../util/scrub';
import { singleFlight } from '../util/singleFlight';
import { tokenExpired } from './tokenSet';
import { withTimeout } from '../util/withTimeout';

/** How a refresh that failed on the network is tried again in the background. */
export interface BackoffSettings {
  /** delay before the first background retry; doubles after each failure */
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** background retries after which the manager waits for the next `getToken()` instead */
  readonly maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { initialDelayMs: 1000, maxDelayMs: 30000, maxAttempts: 6 };

export interface TokenManagerDependencies {
  /** the live keycloak-js instance, or null while none is */
  readonly keycloak: () => KeycloakLike | null;
  readonly isSignedIn: () => boolean;
  /** seconds of validity a returned token must have */
  readonly minValidity: number;
  /** milliseconds a refresh may take before it counts as a network failure */
  readonly timeout: number;
  readonly unreachable: () => AuthError;
  /** the provider refused the refresh (keycloak-js cleared its tokens): the session must end */
  readonly onRefused: () => void;
  /** brings the token to `minValidity` (-1: a new one); default keycloak-js's `updateToken` (the tab coordinator asks the leading tab) */
  readonly refresh?: (kc: KeycloakLike, minValidity: number) => Promise<unknown>;
  /** a refresh did not reach the provider in time (the current token is kept while valid); a refusal goes to `onRefused` */
  readonly onUnreachable?: () => void;
  readonly backoff?: BackoffSettings;
  /**
   * While a tab runs on tokens a live tab handed over, keycloak-js's init is still confirming them: this
   * returns that confirmation (it never rejects), else null. A refresh waits for it, so no refresh ever goes
   * through an unconfirmed instance; the handed-over token itself is served while it is valid.
   */
  readonly unconfirmed?: () => Promise<unknown> | null;
}

function notAuthenticated(detail: string): AuthError {
  return new AuthError('not-authenticated', `${detail} Call session.login() to sign in.`);
}

/**
 * Hands out access tokens: the current one while it has `minValidity` left, else one refresh for
 * all concurrent callers. keycloak-js clears its tokens only when the provider answers 400, so a
 * failed refresh that leaves `kc.token` set is a network failure: the current token is kept while
 * it is still valid and the refresh is retried with a bounded backoff.
 */
export class TokenManager {
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly backoff: BackoffSettings;
  private readonly refreshIfNeeded = singleFlight(() => this.refresh(this.deps.minValidity));
  // keycloak-js treats -1 as "refresh regardless of expiry" (used after an API answered 401)
  private readonly refreshNow = singleFlight(() => this.refresh(-1));

  constructor(private readonly deps: TokenManagerDependencies) {
    this.backoff = deps.backoff ?? DEFAULT_BACKOFF;
  }

  async getToken(options: { forceRefresh?: boolean } = {}): Promise<string> {
    const kc = this.signedInKeycloak();
    if (options.forceRefresh) return this.refreshNow();
    if (kc.token && !tokenExpired(kc, this.deps.minValidity)) return kc.token;
    return this.refreshIfNeeded();
  }

  /** Forgets retries in progress (the session ended or a new keycloak-js instance took over). */
  reset(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.attempts = 0;
  }

  private signedInKeycloak(): KeycloakLike {
    const kc = this.deps.keycloak();
    if (!kc || !this.deps.isSignedIn() || !kc.token) {
      throw notAuthenticated('No one is signed in, so there is no access token.');
    }
    return kc;
  }

  private async refresh(minValidity: number): Promise<string> {
    const pending = this.deps.unconfirmed?.();
    // after the wait the session may have ended (the provider did not confirm): signedInKeycloak() says so
    if (pending) await pending;
    const before = this.signedInKeycloak();
    // a tab that held no refresh token signs in again with a new keycloak-js instance: read the current one after
    const current = () => this.deps.keycloak() ?? before;
    try {
      const refresh = this.deps.refresh ? this.deps.refresh(before, minValidity) : before.updateToken(minValidity);
      await withTimeout(refresh, this.deps.timeout, this.deps.unreachable);
    } catch (error) {
      const kc = current();
      if (!kc.token) {
        this.deps.onRefused();
        throw notAuthenticated('The identity provider refused to refresh the token: the session has ended.');
      }
      this.deps.onUnreachable?.();
      this.scheduleRetry();
      if (!tokenExpired(kc)) return kc.token;
      if (error instanceof AuthError) throw error;
      const reason = this.deps.unreachable();
      throw new AuthError(reason.code, `${reason.message} (${describeError(error)})`, { cause: error });
    }
    const kc = current();
    if (!kc.token) {
      this.deps.onRefused();
      throw notAuthenticated('The session ended while the token was being refreshed.');
    }
    this.reset();
    return kc.token;
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== null || this.attempts >= this.backoff.maxAttempts) return;
    const delay = Math.min(this.backoff.initialDelayMs * 2 ** this.attempts, this.backoff.maxDelayMs);
    this.attempts += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.deps.isSignedIn()) return;
      // A failure here schedules the next attempt from inside refresh(); there is no caller to tell.
      this.refreshIfNeeded().catch(() => undefined);
    }, delay);
  }
}
