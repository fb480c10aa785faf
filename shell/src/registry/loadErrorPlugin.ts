import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { ManifestHttpError } from './classify';
import type { FailureLog } from './FailureLog';
import type { RemoteTimeline } from './RemoteTimeline';

/**
 * What the plugin marks phases with (the timeline and a way to name the remote of a manifest URL), and
 * where it fetches manifests: the registry, which keeps the release each remote runs (decisions/0046).
 */
export interface PhaseMarks {
  readonly timeline: RemoteTimeline;
  remoteForManifest(url: string): string | undefined;
  fetchManifest?(url: string, init: RequestInit): Promise<Response>;
}

interface ErrorArgs {
  id: string;
  error: unknown;
  lifecycle?: string;
  remote?: { name?: string } | undefined;
}

/**
 * The shell's federation runtime plugin: records why a remote failed (errorLoadRemote) so its slot can
 * say so, and makes a manifest answered with an error status fail as such instead of as bad JSON.
 * It never substitutes a module: the slot shows the failure and offers a retry.
 */
export function loadErrorPlugin(
  failures: FailureLog,
  remoteNames: () => readonly string[],
  marks?: PhaseMarks,
): ModuleFederationRuntimePlugin {
  return {
    name: 'gatehouse-remote-errors',
    errorLoadRemote(args: ErrorArgs) {
      const name = args.remote?.name ?? remoteNames().find((n) => args.id === n || args.id.startsWith(`${n}/`));
      if (name) failures.record(name, { lifecycle: args.lifecycle ?? 'onLoad', error: args.error });
      return undefined;
    },
    async fetch(url: string, init: RequestInit) {
      const response = await (marks?.fetchManifest ? marks.fetchManifest(url, init) : fetch(url, init));
      if (!response.ok) throw new ManifestHttpError(url, response.status);
      const remote = marks?.remoteForManifest(url);
      if (remote) marks?.timeline.done(remote, 'manifest');
      return response;
    },
    // the remote entry has been evaluated (its container exists) and is about to be initialised
    beforeInitContainer(args: { remoteInfo: { name: string } }) {
      marks?.timeline.done(args.remoteInfo.name, 'entry');
      return args;
    },
  } as ModuleFederationRuntimePlugin;
}
