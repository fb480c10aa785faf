import { useCallback, useEffect, useRef } from 'react';
import type { RemoteConfig } from '../config/types';
import type { RemoteRegistry } from '../registry/RemoteRegistry';

/**
 * A failed slot tries again by itself (decisions/0046): on the next navigation into it, when the browser
 * comes back `online`, and when the tab becomes visible — each an ask to the registry's backoff, which
 * runs at most one attempt per wait and none while one is in flight. The navigation that opened the slot
 * counts only if it did not try (its failure was held from moments ago). An attempt due after the slot is
 * gone does nothing.
 */
export function useAutoRetry(
  registry: RemoteRegistry,
  remote: RemoteConfig,
  state: { readonly failed: boolean; readonly held: boolean; readonly navigation: string; readonly entered: string },
  retry: () => void,
): void {
  const { failed, held, navigation, entered } = state;
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const attempt = useCallback(() => {
    if (mounted.current) retry();
  }, [retry]);

  // the last navigation that tried (or asked): each navigation asks once
  const askedFor = useRef<string | null>(held ? null : entered);
  useEffect(() => {
    if (!failed || askedFor.current === navigation) return;
    askedFor.current = navigation;
    registry.retryWhenDue(remote, attempt);
  }, [registry, remote, failed, navigation, attempt]);

  useEffect(() => {
    if (!failed) return undefined;
    const ask = () => registry.retryWhenDue(remote, attempt);
    const visible = () => {
      if (document.visibilityState === 'visible') ask();
    };
    window.addEventListener('online', ask);
    document.addEventListener('visibilitychange', visible);
    return () => {
      window.removeEventListener('online', ask);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [registry, remote, failed, attempt]);
}
