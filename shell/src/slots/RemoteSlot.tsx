import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { RemoteConfig } from '../config/types';
import type { RemoteRegistry } from '../registry/RemoteRegistry';
import { RemoteErrorBoundary } from './RemoteErrorBoundary';

/**
 * One remote's place on the page: its code is requested when the slot first renders, it suspends while
 * loading, and fails alone. Retry clears what the runtime cached for the remote and loads it afresh.
 */
/** Commits together with the remote's component (same Suspense boundary): its effect marks the first render. */
function Rendered({ onRendered }: { onRendered: () => void }) {
  useEffect(onRendered, []); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

export function RemoteSlot({ remote, registry }: { remote: RemoteConfig; registry: RemoteRegistry }) {
  const [attempt, setAttempt] = useState(0);
  // Already loaded (prefetched while the sign-in check ran): rendered at once. A lazy component suspends on
  // its first render even then, and React keeps a fallback it has shown for 300 ms before revealing.
  // Otherwise a new lazy component per attempt: React caches a lazy component's rejection forever.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `attempt` is the reason to make a new lazy component
  const RemoteApp = useMemo(() => registry.loaded(remote)?.default ?? lazy(() => registry.load(remote)), [registry, remote, attempt]);
  const retry = () => {
    registry.reset(remote);
    setAttempt((n) => n + 1);
  };
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
        <Suspense
          fallback={
            <p className="gh-muted" role="status">
              Loading {remote.title}…
            </p>
          }
        >
          <RemoteApp />
          <Rendered onRendered={() => registry.timeline?.done(remote.name, 'render')} />
        </Suspense>
      </RemoteErrorBoundary>
    </div>
  );
}
