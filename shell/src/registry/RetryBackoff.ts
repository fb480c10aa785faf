/** The clock the backoff reads and sets its timers with (injectable for tests). */
export interface BackoffClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realClock: BackoffClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (timer) => globalThis.clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** The first wait after a failure, and the longest (milliseconds). */
export const RETRY_BACKOFF = { firstMs: 1_000, maxMs: 30_000 } as const;

/**
 * When a failed remote may be tried again by itself (decisions/0046): a navigation into its slot, the
 * browser coming back `online` or the tab becoming visible asks for an attempt; the first is allowed 1 s
 * after the failure, each further failure doubles the wait up to 30 s, and a success starts over. Asks
 * that come too early are folded into one attempt when the wait ends — however many events arrive, a
 * remote that stays down is asked at most once per wait. Retry (the visitor's button) does not wait.
 */
export class RetryBackoff {
  private readonly failures = new Map<string, { count: number; at: number }>();
  private readonly timers = new Map<string, unknown>();

  constructor(private readonly clock: BackoffClock = realClock) {}

  failed(remote: string): void {
    const count = (this.failures.get(remote)?.count ?? 0) + 1;
    this.failures.set(remote, { count, at: this.clock.now() });
  }

  succeeded(remote: string): void {
    this.failures.delete(remote);
    this.cancel(remote);
  }

  /** Milliseconds until an automatic attempt may start: 0 when it may start now (or nothing failed). */
  wait(remote: string): number {
    const failure = this.failures.get(remote);
    if (!failure) return 0;
    const delay = Math.min(RETRY_BACKOFF.firstMs * 2 ** (failure.count - 1), RETRY_BACKOFF.maxMs);
    return Math.max(0, failure.at + delay - this.clock.now());
  }

  /**
   * Runs `attempt` now if the wait is over, else once when it is (an earlier ask still waiting is
   * replaced, so only one attempt follows). `busy()` is asked at that moment: an attempt already in
   * flight is not doubled.
   */
  ask(remote: string, attempt: () => void, busy: () => boolean): void {
    this.cancel(remote);
    const run = () => {
      this.timers.delete(remote);
      if (!busy()) attempt();
    };
    const wait = this.wait(remote);
    if (wait === 0) {
      run();
      return;
    }
    this.timers.set(remote, this.clock.setTimeout(run, wait));
  }

  /** Drops an ask that is still waiting (its slot is gone, or the visitor retried). */
  cancel(remote: string): void {
    if (!this.timers.has(remote)) return;
    this.clock.clearTimeout(this.timers.get(remote));
    this.timers.delete(remote);
  }
}
