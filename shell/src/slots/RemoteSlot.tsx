import { Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { RemoteConfig } from '../config/types';
import { RemoteUpdateOffer } from '../layout/RemoteUpdateOffer';
import type { RemoteRegistry } from '../registry/RemoteRegistry';
import { RemoteErrorBoundary } from './RemoteErrorBoundary';
import { useAutoRetry } from './useAutoRetry';
import { useReleaseOffer } from './useReleaseOffer';
import { useRemoteModule } from './useRemoteModule';

/** Commits together with the remote's component (same Suspense boundary): its effect marks the first render. */
function Rendered({ onRendered }: { onRendered: () => void }) {
  useEffect(onRendered, []); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

/**
 * Shows its content only after `delayMs`: a return visit to a loaded remote waits for one revalidation round
 * trip (usually a quick 304), which should not flash "Loading …" in place of the page.
 */
function AfterDelay({ delayMs, children }: { delayMs: number; children: ReactNode }) {
  const [due, setDue] = useState(delayMs <= 0);
  useEffect(() => {
    if (due) return undefined;
    const timer = setTimeout(() => setDue(true), delayMs);
    return () => clearTimeout(timer);
  }, [due, delayMs]);
  return due ? children : null;
}

/** How long a revalidation of a loaded remote may take before the slot says it is loading. */
export const REVALIDATION_QUIET_MS = 400;

/** Rethrows a failed load during render, where the slot's error boundary catches it. */
function Failed({ error }: { error: unknown }): never {
  throw error;
}

/**
 * One remote's place on the page: its code is requested when the slot first renders, it says so while
 * loading, and fails alone. Retry clears what the runtime cached for the remote and loads it afresh; a
 * failure also heals by itself (navigation, `online`, the tab visible; with backoff). `navigation` names
 * the router's current navigation (its location key): the one that opened the slot revalidates the
 * remote's manifest and shows its newest release; each later one inside the route looks for a new
 * release and offers it (decisions/0046).
 */
export function RemoteSlot({ remote, registry, navigation }: { remote: RemoteConfig; registry: RemoteRegistry; navigation: string }) {
  const [entered] = useState(navigation);
  const [attempt, setAttempt] = useState(0);
  const { module, error, failed = false, held = false } = useRemoteModule(registry, remote, entered, attempt);
  // a return visit whose release is being revalidated (not a first load, not Retry/Update)
  const [revalidating] = useState(() => attempt === 0 && registry.loaded(remote) !== undefined && !registry.ready(remote, entered));
  const updated = useRef(false);
  const slot = useRef<HTMLDivElement>(null);
  const retry = useCallback(() => {
    registry.cancelRetry(remote);
    registry.reset(remote);
    setAttempt((n) => n + 1);
  }, [registry, remote]);
  useAutoRetry(registry, remote, { failed, held, navigation, entered }, retry);
  const { offered, dismiss } = useReleaseOffer(registry, remote, { shown: Boolean(module) && !failed, navigation, entered });
  const update = () => {
    dismiss();
    updated.current = true;
    registry.update(remote);
    setAttempt((n) => n + 1);
  };
  const rendered = () => {
    registry.timeline?.done(remote.name, 'render');
    // after Update, focus goes to the new release's heading (the button it was on is gone)
    const heading = updated.current ? slot.current?.querySelector('h1') : null;
    updated.current = false;
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
  };
  const loading = (
    <p className="gh-muted" role="status">
      Loading {remote.title}…
    </p>
  );
  const RemoteApp = module?.default;
  return (
    <div className="gh-slot" data-remote={remote.name} ref={slot}>
      <RemoteUpdateOffer title={remote.title} offered={offered} onUpdate={update} />
      {RemoteApp && registry.gate?.unsigned(remote.name) ? (
        // development only: a production shell never runs an unsigned release of a remote that pins keys
        <p className="gh-muted" role="note" data-release="unsigned">
          Unsigned development build of {remote.title}: its release was not verified.
        </p>
      ) : null}
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
            <Rendered onRendered={rendered} />
          </Suspense>
        ) : revalidating && attempt === 0 ? (
          <AfterDelay delayMs={REVALIDATION_QUIET_MS}>{loading}</AfterDelay>
        ) : (
          loading
        )}
      </RemoteErrorBoundary>
    </div>
  );
}
