import type { SessionEvent, SessionWatch as SessionWatchMode } from '../../types';
import type { FrameAvailability } from './frameAvailability';
import type { CheckOutcome } from './providerCheck';
import { TabVisibility, type PageVisibility } from '../tabs/tabVisibility';

/** What the watch needs from its tab's session. */
export interface WatchHost {
  isSignedIn(): boolean;
  /** whether this tab is the one that asks the provider for the browser (the refresh leader) */
  isLeader(): boolean;
  /** one question to the provider (providerCheck.ts) */
  check(): Promise<CheckOutcome>;
  /** the provider says the session ended: sign this tab out as `session-ended` and tell the others */
  ended(): void;
  /** another tab says its check found the session ended: sign this tab out as `session-ended` once proven */
  endedElsewhere(): void;
  /** a message to the other tabs (no token in it) */
  send(message: { type: string } & Record<string, unknown>): void;
  readWatch(): SessionWatchMode;
  writeWatch(watch: SessionWatchMode): void;
  emit(event: SessionEvent): void;
}

/** How often the watch checks: `activeSeconds` while a visitor uses the page, `idleSeconds` while nobody does. */
export interface WatchRhythm {
  /** seconds between checks while a visitor uses the page (`sessionWatchSeconds`); 0 turns the checks off */
  readonly activeSeconds: number;
  /** seconds between checks of a visible page nobody uses (`sessionWatchIdleSeconds`) */
  readonly idleSeconds: number;
}

/** Tolerance for timers that fire a little early or late when deciding whether a check is due. */
const SLACK_MS = 250;

/**
 * Notices a session ended at the provider, whether or not keycloak-js's login-status frame runs (Keycloak's
 * frame only compares a cookie, so it misses a revocation; decisions/0044), at a cost that follows the visitor
 * (decisions/0090): the leading tab asks the provider once for the whole browser, every `activeSeconds` while a
 * visitor uses some tab (input in any tab since the last check), every `idleSeconds` while nobody does, never
 * while every tab is hidden. Input after a pause asks at once when the last check is `activeSeconds` old; a tab
 * that shows again asks at once only when a check fell due meanwhile. Every tab keeps the timer, the visibility
 * of the others and the times of the last check and input, so a tab that takes the lead over carries on. Also
 * owns the snapshot's `sessionWatch` and its event.
 */
export class SessionWatch {
  private announced: SessionWatchMode = 'frame';
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastCheckAt = 0;
  private lastActivityAt = 0;
  private lastShared = 0;
  private checking = false;
  private readonly visibility: TabVisibility;

  constructor(
    private readonly host: WatchHost,
    private readonly frame: FrameAvailability,
    private readonly rhythm: WatchRhythm,
    page: PageVisibility | null,
  ) {
    this.visibility = new TabVisibility(
      page,
      (message) => host.send(message),
      () => this.someTabVisible(),
    );
    frame.onUnavailable(() => {
      this.sync();
      // the other tabs, seeded ones among them, ran no check of their own (decisions/0053)
      host.send({ type: 'watch-frame-unavailable' });
    });
    this.sync();
    if (rhythm.activeSeconds > 0) this.start();
  }

  /**
   * `frame` while keycloak-js's frame can run (plus the server check unless it is turned off); else `refresh`
   * (the server check only), or `none` when the checks are turned off.
   */
  get mode(): SessionWatchMode {
    if (this.frame.available) return 'frame';
    return this.rhythm.activeSeconds > 0 ? 'refresh' : 'none';
  }

  /** Whether this tab is asking the provider right now (a refusal then means the session ended). */
  get inCheck(): boolean {
    return this.checking;
  }

  /** Puts the mode into the snapshot (a new snapshot, e.g. after retry(), starts from the default). */
  sync(): void {
    const mode = this.mode;
    const changed = mode !== this.announced;
    this.announced = mode;
    if (this.host.readWatch() !== mode) this.host.writeWatch(mode);
    if (!changed) return;
    this.host.emit({ type: 'sessionWatchChanged', watch: mode });
  }

  /** Messages of the other tabs' watches. */
  receive(message: { type: string } & Record<string, unknown>): void {
    if (message.type === 'watch-session-ended') this.host.endedElsewhere();
    else if (message.type === 'watch-frame-unavailable') this.frame.markUnavailable();
    else if (message.type === 'watch-visibility') {
      this.visibility.receive(message);
      // a new tab announces itself: the leading tab tells it what this browser's frame check said
      if (!this.frame.available && this.host.isLeader()) this.host.send({ type: 'watch-frame-unavailable' });
    } else if (message.type === 'watch-checked' && typeof message.at === 'number')
      // no later than now: a time in the future would hold every check back
      this.lastCheckAt = Math.max(this.lastCheckAt, Math.min(message.at, Date.now()));
    else if (message.type === 'watch-activity' && typeof message.at === 'number') this.activity(Math.min(message.at, Date.now()), true);
  }

  /**
   * A visitor's input in this tab (or, `fromOtherTab`, in another): the checks take the active rhythm, and one
   * runs at once when the last is `activeSeconds` old (a visitor back after a pause learns at once). Shared with
   * the other tabs at most every few seconds (the message carries only the time).
   */
  activity(at: number = Date.now(), fromOtherTab = false): void {
    if (this.rhythm.activeSeconds <= 0 || at <= this.lastActivityAt) return;
    this.lastActivityAt = at;
    if (!fromOtherTab && at - this.lastShared >= Math.min(5_000, (this.rhythm.activeSeconds * 1000) / 3)) {
      this.lastShared = at;
      this.host.send({ type: 'watch-activity', at });
    }
    if (Date.now() - this.lastCheckAt >= this.rhythm.activeSeconds * 1000 - SLACK_MS && this.visibility.anyVisible()) {
      void this.checkNow();
      this.schedule();
    }
  }

  /** This tab's check refreshed and the provider refused: the session ended (in every tab). */
  sessionEnded(): void {
    this.host.ended();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private start(): void {
    this.lastCheckAt = Date.now();
    this.schedule();
    // after construction: the other tabs' answers come back through this tab's session, which must exist by then
    void Promise.resolve().then(() => this.visibility.announce(true));
  }

  private schedule(): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.visibility.anyVisible() && this.due()) void this.checkNow();
      this.schedule();
    }, this.rhythm.activeSeconds * 1000);
  }

  /** Whether a check is due: `activeSeconds` after the last one with input since, else `idleSeconds` after it. */
  private due(): boolean {
    const active = this.lastActivityAt > this.lastCheckAt;
    const every = active ? this.rhythm.activeSeconds : Math.max(this.rhythm.activeSeconds, this.rhythm.idleSeconds);
    return Date.now() - this.lastCheckAt >= every * 1000 - SLACK_MS;
  }

  private someTabVisible(): void {
    if (this.rhythm.activeSeconds <= 0 || !this.due()) return;
    void this.checkNow();
    this.schedule();
  }

  private async checkNow(): Promise<void> {
    if (this.checking || !this.host.isLeader() || !this.host.isSignedIn()) return;
    this.checking = true;
    const at = Date.now();
    this.lastCheckAt = at;
    try {
      const outcome = await this.host.check();
      if (outcome === 'ended') this.host.ended();
      else if (outcome === 'alive') this.host.send({ type: 'watch-checked', at });
    } finally {
      this.checking = false;
    }
  }
}
