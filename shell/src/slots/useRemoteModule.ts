import { useEffect, useMemo, useState } from 'react';
import type { RemoteConfig } from '../config/types';
import type { RemoteAppModule, RemoteRegistry } from '../registry/RemoteRegistry';

/** What a slot shows for one attempt: the module, a failure, or neither yet (loading). */
export interface RemoteModuleState {
  readonly module?: RemoteAppModule;
  readonly error?: unknown;
  readonly failed?: boolean;
  /** the failure is one shown moments ago, held without asking again while the backoff waits */
  readonly held?: boolean;
}

/**
 * The remote's module for this attempt. The first attempt is the navigation into the slot (`entered`):
 * a module this navigation has already revalidated shows at once, a failure of moments ago is held, and
 * anything else goes through `registry.open` (revalidate, load a new release, or load). Later attempts
 * (Retry, Update) load afresh. Not `React.lazy`: a lazy component that suspends shows the fallback, and React
 * then holds the revealed content back until 300 ms after that fallback appeared (its Suspense throttling),
 * which a slot rendered while its prefetch is in flight (a second tab, signed in at once) would pay every time.
 */
export function useRemoteModule(registry: RemoteRegistry, remote: RemoteConfig, entered: string, attempt: number): RemoteModuleState {
  // One load per attempt, also when StrictMode runs the effect twice; what shows at once is decided once.
  const request = useMemo(
    () => ({
      ready: attempt === 0 ? registry.ready(remote, entered) : undefined,
      held: attempt === 0 ? registry.heldFailure(remote) : undefined,
      pending: undefined as Promise<RemoteAppModule> | undefined,
    }),
    [registry, remote, entered, attempt],
  );
  const [result, setResult] = useState<{ request: typeof request; state: RemoteModuleState } | null>(null);
  useEffect(() => {
    if (request.ready || request.held !== undefined) return undefined;
    let current = true;
    request.pending ??= attempt === 0 ? registry.open(remote, entered) : registry.load(remote);
    request.pending.then(
      (module) => current && setResult({ request, state: { module } }),
      (error: unknown) => current && setResult({ request, state: { error, failed: true } }),
    );
    return () => {
      current = false;
    };
  }, [registry, remote, entered, attempt, request]);
  if (request.ready) return { module: request.ready };
  if (request.held !== undefined) return { error: request.held, failed: true, held: true };
  return result?.request === request ? result.state : {};
}
