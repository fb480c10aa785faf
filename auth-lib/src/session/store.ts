import type { SessionEvent, SessionSnapshot } from '../types';

/**
 * An external store in the shape `useSyncExternalStore` expects: `get()` returns the same object
 * until `set()` replaces it, and every replacement notifies the subscribers once.
 */
export class SnapshotStore {
  private snapshot: SessionSnapshot;
  private readonly listeners = new Set<() => void>();

  constructor(initial: SessionSnapshot) {
    this.snapshot = initial;
  }

  readonly get = (): SessionSnapshot => this.snapshot;

  /** Replaces the snapshot with `next` merged over it; a no-op when nothing would change. */
  set(next: Partial<SessionSnapshot>): void {
    const merged = Object.freeze({ ...this.snapshot, ...next });
    if (shallowEqual(merged, this.snapshot)) return;
    this.snapshot = merged;
    for (const listener of [...this.listeners]) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Resolves with the first snapshot that is not `loading` (at once if this one is not). */
  settled(): Promise<SessionSnapshot> {
    if (this.snapshot.status !== 'loading') return Promise.resolve(this.snapshot);
    return new Promise((resolve) => {
      const unsubscribe = this.subscribe(() => {
        if (this.snapshot.status === 'loading') return;
        unsubscribe();
        resolve(this.snapshot);
      });
    });
  }
}

function shallowEqual(a: SessionSnapshot, b: SessionSnapshot): boolean {
  return (Object.keys(a) as (keyof SessionSnapshot)[]).every((key) => Object.is(a[key], b[key]));
}

/**
 * Session events for any number of listeners: keycloak-js has one callback slot per event
 * (`onAuthLogout`), which is why the session re-publishes through this.
 */
export class EventEmitter {
  private readonly listeners = new Set<(event: SessionEvent) => void>();

  readonly on = (listener: (event: SessionEvent) => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  emit(event: SessionEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One failing listener must not stop the others or the session; rethrow outside this stack.
        setTimeout(() => {
          throw error;
        });
      }
    }
  }
}
