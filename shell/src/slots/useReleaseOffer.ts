import { useEffect, useState } from 'react';
import type { RemoteConfig } from '../config/types';
import type { RemoteRegistry } from '../registry/RemoteRegistry';

/**
 * Whether to offer the new release of the remote on screen (decisions/0046): each navigation inside the
 * remote's route after the one that opened it revalidates the manifest once; a new release is offered, not
 * forced — the running one keeps its state until the visitor chooses Update.
 */
export function useReleaseOffer(
  registry: RemoteRegistry,
  remote: RemoteConfig,
  state: { readonly shown: boolean; readonly navigation: string; readonly entered: string },
): { readonly offered: boolean; readonly dismiss: () => void } {
  const { shown, navigation, entered } = state;
  const [offered, setOffered] = useState<{ navigation: string; found: boolean } | null>(null);
  useEffect(() => {
    if (!shown || navigation === entered) return undefined;
    let current = true;
    void registry.lookForUpdate(remote, navigation).then((found) => current && setOffered({ navigation, found }));
    return () => {
      current = false;
    };
  }, [registry, remote, shown, navigation, entered]);
  return { offered: shown && offered !== null && offered.found, dismiss: () => setOffered(null) };
}
