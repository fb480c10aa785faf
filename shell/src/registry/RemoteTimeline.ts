import type { RemoteFailureCode } from './RemoteLoadError';

/** The steps of showing a remote: its manifest, its remote entry, the exposed module's code, the first render. */
export type RemotePhase = 'manifest' | 'entry' | 'code' | 'render';

/** One finished (or failed) phase of one remote; carries no token and no response body. */
export interface RemotePhaseEvent {
  readonly type: 'remotePhase';
  readonly remote: string;
  readonly phase: RemotePhase;
  readonly ok: boolean;
  /** milliseconds from the end of the previous phase (or the start of the load) to this one's end */
  readonly durationMs: number;
  /** set when `ok` is false */
  readonly reason?: RemoteFailureCode;
}

/**
 * A remote's release changed under the open page (decisions/0046): `remoteUpdateAvailable` when a navigation
 * found a new release of the remote on screen (the shell offers Update), `remoteUpdated` when a new release
 * has loaded in place of the old one (on a navigation into it, or after Update).
 */
export interface RemoteReleaseEvent {
  readonly type: 'remoteUpdateAvailable' | 'remoteUpdated';
  readonly remote: string;
}

/**
 * A release of a remote that pins signing keys was not run (decisions/0117), or a file of it was refused: `reason`
 * is the refusal's (`bad-signature`, `unknown-key`, `missing-signature`, `hash-mismatch`, `not-listed`, `malformed`,
 * `wrong-name`, `no-keys`, `unavailable`, `unverifiable-module`). Its team is told through this event; it carries no
 * file content and no key.
 */
export interface RemoteReleaseRefusedEvent {
  readonly type: 'remoteReleaseRefused';
  readonly remote: string;
  readonly reason: string;
  readonly message: string;
}

/** Every event of the timeline. */
export type RemoteEvent = RemotePhaseEvent | RemoteReleaseEvent | RemoteReleaseRefusedEvent;

const ORDER: readonly RemotePhase[] = ['manifest', 'entry', 'code', 'render'];

/**
 * The registry's event stream for telemetry: each remote's phases with durations and, on failure, the
 * reason its slot shows; and a remote's new release, offered or loaded ({@link RemoteReleaseEvent}). Phases are marked by the registry (start, code), the federation runtime plugin
 * (manifest fetched, entry evaluated) and the slot (rendered).
 *
 * @example
 * timeline.on((event) => navigator.sendBeacon('/telemetry', JSON.stringify(event)));
 */
export class RemoteTimeline {
  private readonly listeners = new Set<(event: RemoteEvent) => void>();
  private readonly progress = new Map<string, { at: number; next: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  on(listener: (event: RemoteEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A load of `remote` begins (a retry begins anew). */
  started(remote: string): void {
    this.progress.set(remote, { at: this.now(), next: 0 });
  }

  /** `phase` of `remote` completed; phases skipped in between (e.g. a cached manifest) are not reported. */
  done(remote: string, phase: RemotePhase): void {
    const state = this.progress.get(remote);
    const index = ORDER.indexOf(phase);
    if (!state || index < state.next) return;
    const at = this.now();
    this.emit({ type: 'remotePhase', remote, phase, ok: true, durationMs: Math.round(at - state.at) });
    this.progress.set(remote, { at, next: index + 1 });
  }

  /** The phase after the last completed one failed for `reason`. */
  failed(remote: string, reason: RemoteFailureCode, phase?: RemotePhase): void {
    const state = this.progress.get(remote);
    if (!state) return;
    const failedPhase = phase ?? ORDER[Math.min(state.next, ORDER.length - 1)]!;
    this.emit({ type: 'remotePhase', remote, phase: failedPhase, ok: false, durationMs: Math.round(this.now() - state.at), reason });
    this.progress.delete(remote);
  }

  /** A navigation found a new release of `remote` while it is on screen. */
  updateAvailable(remote: string): void {
    this.emit({ type: 'remoteUpdateAvailable', remote });
  }

  /** A new release of `remote` has loaded in place of the one the page ran. */
  updated(remote: string): void {
    this.emit({ type: 'remoteUpdated', remote });
  }

  /** A release of `remote` (or a file of it) did not verify and was not run. */
  releaseRefused(remote: string, reason: string, message: string): void {
    this.emit({ type: 'remoteReleaseRefused', remote, reason, message });
  }

  private emit(event: RemoteEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  }
}
