/**
 * Leader election between the tabs of one origin with the Web Locks API: the tab that holds the lock
 * is the leader until it closes (the browser releases the lock then, even on a crash), and the next
 * waiting tab takes over. Only the leader calls the token endpoint; see `TabCoordinator`.
 */

/** The part of `navigator.locks` used here; injected so tests and runtimes without it can pass their own. */
export interface TabLocks {
  request(name: string, callback: () => Promise<void>): Promise<unknown>;
  query(): Promise<{ held?: readonly { name?: string }[] }>;
}

/** `navigator.locks` when the runtime has it, else null (then every tab refreshes for itself). */
export function defaultTabLocks(): TabLocks | null {
  const locks = typeof navigator === 'object' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (!locks) return null;
  return {
    request: (name, callback) => locks.request(name, callback),
    query: () => locks.query(),
  };
}

/** What every leader lock's name starts with (a tab about to be seeded looks for one: tokenVerifier.ts). */
export const LEADER_LOCK_PREFIX = 'gatehouse-auth:leader:';

export function leaderLockName(realm: string, clientId: string): string {
  return `${LEADER_LOCK_PREFIX}${realm}:${clientId}`;
}

export class TabLeader {
  private leading = false;
  private release: (() => void) | null = null;
  private requested = false;

  constructor(
    private readonly locks: TabLocks,
    private readonly name: string,
    private readonly onLeading: () => void,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  /** Whether another tab leads now (asked before this tab queues for the lock itself). */
  async otherTabLeads(): Promise<boolean> {
    if (this.leading) return false;
    try {
      const { held = [] } = await this.locks.query();
      return held.some((lock) => lock.name === this.name);
    } catch {
      return false;
    }
  }

  /** Queues for leadership; `onLeading` runs once the lock is granted. */
  campaign(): void {
    if (this.requested) return;
    this.requested = true;
    this.locks
      .request(this.name, () => {
        this.leading = true;
        this.onLeading();
        return new Promise<void>((resolve) => {
          this.release = resolve;
        });
      })
      .catch(() => undefined);
  }

  /** Gives leadership up (tests; a page that closes releases it by itself). */
  resign(): void {
    this.leading = false;
    this.release?.();
    this.release = null;
  }
}
