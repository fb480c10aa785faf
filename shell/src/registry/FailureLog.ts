import type { LoadLifecycle } from './classify';

/** A failure the federation runtime reported for a remote, before loadRemote rejected. */
export interface RecordedFailure {
  readonly lifecycle: LoadLifecycle;
  readonly error: unknown;
}

/**
 * The first failure the runtime reported per remote during the current attempt. The first one is the
 * cause (e.g. the manifest fetch); later reports of the same attempt only wrap it.
 */
export class FailureLog {
  private readonly failures = new Map<string, RecordedFailure>();

  record(remote: string, failure: RecordedFailure): void {
    if (!this.failures.has(remote)) this.failures.set(remote, failure);
  }

  /** the recorded cause, removed so that the next attempt starts clean */
  take(remote: string): RecordedFailure | undefined {
    const failure = this.failures.get(remote);
    this.failures.delete(remote);
    return failure;
  }

  clear(remote: string): void {
    this.failures.delete(remote);
  }
}
