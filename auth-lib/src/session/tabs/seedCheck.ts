import type { KeycloakInitOptions, KeycloakLike } from '../keycloak/keycloak';
import { adoptTokenSet, type TokenSet } from '../tokens/tokenSet';
import { withTimeout } from '../util/withTimeout';

/** What the background check of a seeded tab needs from its session. */
export interface SeedCheckHost {
  /** whether the session still runs on this keycloak-js instance, signed in (it may have ended meanwhile) */
  current(): boolean;
  /** the provider did not confirm the session: sign out as for a session ended at the provider */
  ended(): void;
}

/**
 * A tab seeded by a live tab of the same origin (with access and ID tokens whose signatures verified against
 * the provider's keys) is signed in from those tokens at once, and keycloak-js's `init` readies the instance
 * behind it (its endpoints, for sign-out and sign-in; no frames: decisions/0053). `start` puts the tokens into
 * the instance (the fields keycloak-js's init sets too, so the session reads them as usual) and waits for that
 * init, bounded by `timeoutMs`. Confirmed means init resolved and keycloak-js still holds the token: nothing
 * changes. Anything else (init failed or took too long) calls `host.ended()` and drops the tokens. When the
 * session moved on meanwhile (signed out, another instance), the instance's tokens are dropped, also when its
 * init settles after the timeout.
 */
export class SeedCheck {
  /**
   * The confirmation in progress, or null. It never rejects and settles after the verdict was applied:
   * refreshes wait on it, because keycloak-js knows the provider's endpoints only once its init got that far.
   */
  pending: Promise<void> | null = null;

  start(kc: KeycloakLike, seed: TokenSet, options: KeycloakInitOptions, timeoutMs: number, host: SeedCheckHost): void {
    const init = kc.init(options);
    adoptTokenSet(kc, seed);
    const dropIfStale = () => {
      if (!host.current()) kc.clearToken();
    };
    // an init that settles after the timeout must not leave tokens (and frame checks) behind
    init.then(dropIfStale, dropIfStale);
    const check = withTimeout(init, timeoutMs, () => new Error(`no confirmation within ${timeoutMs} ms`))
      .then(() => Boolean(kc.token))
      .catch(() => false)
      .then((confirmed) => {
        if (!host.current()) return dropIfStale();
        if (confirmed) return;
        host.ended();
        kc.clearToken(); // also stops keycloak-js's login-status frame checks
      })
      .finally(() => {
        if (this.pending === check) this.pending = null;
      });
    this.pending = check;
  }

  /** Forgets a confirmation in progress (a new keycloak-js instance takes over; the old one is unwired). */
  forget(): void {
    this.pending = null;
  }
}
