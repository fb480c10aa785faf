import { Suspense, useEffect, useMemo, useState } from 'react';
import type { RemoteConfig } from '../config/types';
import type { RemoteAppModule, RemoteRegistry } from '../registry/RemoteRegistry';
import { RemoteErrorBoundary } from './RemoteErrorBoundary';

/** Commits together with the remote's component (same Suspense boundary): its effect marks the first render. */
function Rendered({ onRendered }: { onRendered: () => void }) {
  useEffect(onRendered, []); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

/** Rethrows a failed load during render, where the slot's error boundary catches it. */
function Failed({ error }: { error: unknown }): never {
  throw error;
}

type Loading = { readonly module?: RemoteAppModule; readonly error?: unknown; readonly failed?: boolean };

/**
 * The remote's module for this attempt: at once if it has loaded, else loaded in an effect and kept in
 * state. Not `React.lazy`: a lazy component that suspends shows the fallback, and React then holds the
 * revealed content back until 300 ms after that fallback appeared (its Suspense throttling), which a
 * slot rendered while its prefetch is in flight (a second tab, signed in at once) would pay every time.
 */
function useRemoteModule(registry: RemoteRegistry, remote: RemoteConfig, attempt: number): Loading {
  // One load per attempt, also when StrictMode runs the effect twice.
  const request = useMemo(
    () => ({ for: [registry, remote, attempt] as const, pending: undefined as Promise<RemoteAppModule> | undefined }),
    [registry, remote, attempt],
  );
  const [result, setResult] = useState<{ request: typeof request; loading: Loading } | null>(null);
  const loaded = registry.loaded(remote);
  useEffect(() => {
    if (loaded) return undefined;
    let current = true;
    request.pending ??= registry.load(remote);
    request.pending.then(
      (module) => current && setResult({ request, loading: { module } }),
      (error: unknown) => current && setResult({ request, loading: { error, failed: true } }),
    );
    return () => {
      current = false;
    };
  }, [registry, remote, request, loaded]);
  if (loaded) return { module: loaded };
  return result?.request === request ? result.loading : {};
}

/**
 * One remote's place on the page: its code is requested when the slot first renders, it says so while
 * loading, and fails alone. Retry clears what the runtime cached for the remote and loads it afresh.
 */
export function RemoteSlot({ remote, registry }: { remote: RemoteConfig; registry: RemoteRegistry }) {
  const [attempt, setAttempt] = useState(0);
  const { module, error, failed } = useRemoteModule(registry, remote, attempt);
  const retry = () => {
    registry.reset(remote);
    setAttempt((n) => n + 1);
  };
  const loading = (
    <p className="gh-muted" role="status">
      Loading {remote.title}…
    </p>
  );
  const RemoteApp = module?.default;
  return (
    <div className="gh-slot" data-remote={remote.name}>
      <RemoteErrorBoundary
        key={attempt}
        onFailed={(reason) => registry.timeline?.failed(remote.name, reason, 'render')}
        remote={remote.name}
        title={remote.title}
        manifest={remote.manifest}
        onRetry={retry}
      >
        {failed ? (
          <Failed error={error} />
        ) : RemoteApp ? (
          // the remote's own lazy parts may still suspend
          <Suspense fallback={loading}>
            <RemoteApp />
            <Rendered onRendered={() => registry.timeline?.done(remote.name, 'render')} />
          </Suspense>
        ) : (
          loading
        )}
      </RemoteErrorBoundary>
    </div>
  );
}
