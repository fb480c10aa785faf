import type { SessionEvent, SessionSnapshot, SignOutReason } from '../../types';
import type { ResolvedConfig } from '../config';
import type { SessionDependencies } from '../dependencies';
import { withTimeout } from '../util/withTimeout';

/** What the expiry watch needs from its session. */
export interface ExpiryHost {
  getSnapshot(): SessionSnapshot;
  subscribe(listener: () => void): () => void;
  /** the refresh token's expiry (the provider's idle and max lifespan in one), or null */
  providerDeadline(): number | null;
  setExpiresAt(expiresAt: number | null): void;
  emit(event: SessionEvent): void;
  /** ends the session: `idle` signs out at the provider too, `session-expired` only here (the provider ended it) */
  signOut(reason: Extract<SignOutReason, 'idle' | 'session-expired'>): void;
  /** tells the other tabs of activity here (no token) */
  shareActivity(at: number): void;
}

export interface ExpirySettings {
  /** seconds before the end at which `sessionExpiring` is emitted */
  readonly warningSeconds: number;
  /** sign out after this many minutes without activity in any tab; null: never */
  readonly idleTimeoutMinutes: number | null;
  /** milliseconds every `onBeforeSessionEnd` handler gets, together, before the sign-out */
  readonly handlerBudgetMs: number;
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * When the session will end, a warning before, and a last chance for the page's code. The end is the
 * earlier of the refresh token's expiry (Keycloak sets it from the SSO session's idle and max lifespan; every
 * tab holds the same tokens, so every tab computes the same deadline) and, when configured, the idle
 * deadline (last activity in any tab + `idleTimeoutMinutes`). Handlers start `handlerBudgetMs` before the end;
 * the sign-out comes at the end itself (when the provider's session is over), not earlier.
 */
export class SessionExpiry {
  private readonly handlers = new Set<() => unknown>();
  private lastActivity = Date.now();
  private lastShared = 0;
  private warnTimer: Timer | null = null;
  private endTimer: Timer | null = null;
  private scheduledFor: number | null = null;

  constructor(
    private readonly host: ExpiryHost,
    private readonly settings: ExpirySettings,
  ) {
    host.subscribe(() => this.reschedule());
  }

  onBeforeSessionEnd(handler: () => unknown): () => void {
    this.handlers.add(handler);
    return () => {
      this.handlers.delete(handler);
    };
  }

  /** Visitor activity in this tab (`fromOtherTab`: reported by another tab). */
  activity(at: number = Date.now(), fromOtherTab = false): void {
    if (this.settings.idleTimeoutMinutes === null || at <= this.lastActivity) return;
    this.lastActivity = at;
    if (!fromOtherTab && at - this.lastShared > 5_000) {
      this.lastShared = at;
      this.host.shareActivity(at);
    }
    this.reschedule();
  }

  /** Recomputes the deadline after tokens or activity changed. */
  reschedule(): void {
    const signedIn = this.host.getSnapshot().status === 'authenticated';
    const deadline = signedIn ? this.deadline() : null;
    this.host.setExpiresAt(deadline);
    if (deadline === this.scheduledFor) return;
    this.clear();
    this.scheduledFor = deadline;
    if (deadline === null) return;
    const now = Date.now();
    const warnAt = deadline - this.settings.warningSeconds * 1000;
    this.warnTimer = setTimeout(() => this.host.emit({ type: 'sessionExpiring', expiresAt: deadline }), Math.max(0, warnAt - now));
    this.endTimer = setTimeout(() => void this.finish(deadline), Math.max(0, deadline - this.settings.handlerBudgetMs - now));
  }

  private deadline(): number | null {
    const provider = this.host.providerDeadline();
    const idle = this.settings.idleTimeoutMinutes === null ? null : this.lastActivity + this.settings.idleTimeoutMinutes * 60_000;
    if (provider === null) return idle;
    return idle === null ? provider : Math.min(provider, idle);
  }

  /** Runs the handlers (at most `handlerBudgetMs`, and not past the deadline), then signs out at the deadline. */
  private async finish(deadline: number): Promise<void> {
    const handlers = [...this.handlers];
    const budget = Math.max(0, Math.min(this.settings.handlerBudgetMs, deadline - Date.now()));
    await withTimeout(
      Promise.allSettled(handlers.map(async (handler) => handler())),
      budget,
      () => new Error('onBeforeSessionEnd handlers ran out of time'),
    ).catch(() => undefined);
    const early = deadline - Date.now();
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
    // "Stay signed in" or activity elsewhere may have moved the end while the handlers ran
    if (this.scheduledFor !== deadline || this.host.getSnapshot().status !== 'authenticated') return;
    const idle = this.settings.idleTimeoutMinutes !== null && deadline === this.lastActivity + this.settings.idleTimeoutMinutes * 60_000;
    this.host.signOut(idle ? 'idle' : 'session-expired');
  }

  private clear(): void {
    if (this.warnTimer !== null) clearTimeout(this.warnTimer);
    if (this.endTimer !== null) clearTimeout(this.endTimer);
    this.warnTimer = this.endTimer = null;
  }
}

/** Listens for visitor activity on `target` (the page's window); returns the stop function. */
export function watchActivity(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> | null | undefined,
  onActivity: () => void,
): () => void {
  if (!target) return () => undefined;
  const kinds = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
  const listener = () => onActivity();
  for (const kind of kinds) target.addEventListener(kind, listener, { passive: true, capture: true });
  return () => {
    for (const kind of kinds) target.removeEventListener(kind, listener, { capture: true });
  };
}

/** The session's expiry watch and, with an idle timeout, the activity listener that feeds it. */
export function sessionExpiryFor(
  host: ExpiryHost,
  config: Pick<ResolvedConfig, 'expiryWarningSeconds' | 'idleTimeoutMinutes'>,
  deps: Pick<SessionDependencies, 'beforeEndBudgetMs' | 'activityTarget'>,
): SessionExpiry {
  const expiry = new SessionExpiry(host, {
    warningSeconds: config.expiryWarningSeconds,
    idleTimeoutMinutes: config.idleTimeoutMinutes || null,
    handlerBudgetMs: deps.beforeEndBudgetMs ?? 5000,
  });
  if (config.idleTimeoutMinutes) {
    watchActivity(deps.activityTarget === undefined ? globalThis.window : deps.activityTarget, () => expiry.activity());
  }
  return expiry;
}
