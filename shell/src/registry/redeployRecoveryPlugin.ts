import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { RemoteConfig } from '../config/types';

/** The query parameter that makes the re-fetched manifest bypass every cache (browser, proxy, CDN). */
export const REDEPLOY_PARAM = 'gatehouse-redeploy';

/** The part of the federation runtime the recovery uses: the instance that reported the failure. */
interface RuntimeInstance {
  registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote(id: string): Promise<unknown>;
}

interface ErrorArgs {
  readonly id: string;
  readonly error: unknown;
  readonly lifecycle?: string;
  readonly remote?: { name?: string } | undefined;
  readonly origin?: RuntimeInstance;
}

/**
 * True for the failures a redeploy causes: code that the runtime knew of (from the manifest it read
 * earlier) is gone from the server. webpack names a missing chunk `ChunkLoadError`; the federation
 * runtime reports a script it could not load as RUNTIME-008.
 */
export function isMissingCode(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || error.message.includes('RUNTIME-008') || error.message.includes('Loading chunk');
}

/**
 * Recovers from a remote redeployed under an open page (decisions/0017): when a remote's code fails
 * to load because its files changed, the runtime is pointed at the remote's current manifest (fetched
 * again with a cache-buster) and the load is tried **once** more — no page reload, no token request.
 * A second failure is passed on, and the remote's slot shows it. Failures that a fresh manifest
 * cannot cure (manifest missing, server down, incompatible versions, code that throws) are left alone.
 *
 * `now` is injectable so that tests can name the cache-buster.
 */
export function redeployRecoveryPlugin(
  remotes: () => readonly RemoteConfig[],
  now: () => number = Date.now,
): ModuleFederationRuntimePlugin {
  const recovering = new Set<string>();
  return {
    name: 'gatehouse-redeploy-recovery',
    async errorLoadRemote(args: ErrorArgs) {
      if (args.lifecycle !== 'onLoad' || !isMissingCode(args.error) || !args.origin) return undefined;
      const remote = remotes().find((r) => r.name === args.remote?.name || args.id === r.name || args.id.startsWith(`${r.name}/`));
      if (!remote || recovering.has(remote.name)) return undefined;
      recovering.add(remote.name);
      try {
        const manifest = new URL(remote.manifest, window.location.href);
        manifest.searchParams.set(REDEPLOY_PARAM, String(now()));
        args.origin.registerRemotes([{ name: remote.name, entry: manifest.href }], { force: true });
        return await args.origin.loadRemote(args.id);
      } finally {
        recovering.delete(remote.name);
      }
    },
  } as ModuleFederationRuntimePlugin;
}
