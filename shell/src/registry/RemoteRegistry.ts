import type { ComponentType } from 'react';
import type { RemoteConfig } from '../config/types';
import { classifyFailure } from './classify';
import type { FailureLog } from './FailureLog';
import { RemoteLoadError } from './RemoteLoadError';
import { RemoteTimeline } from './RemoteTimeline';

/** The part of the federation runtime the registry uses (injectable for tests). */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote(id: string): Promise<unknown>;
}

/** What a remote's `./App` module provides. */
export interface RemoteAppModule {
  readonly default: ComponentType;
}

/**
 * The remotes of config.json, registered with the federation runtime only when one is first opened,
 * so that nothing of a remote is fetched before its route is.
 */
export class RemoteRegistry {
  private readonly registered = new Set<string>();
  /** loads started by prefetch() that no load() has taken over yet */
  private readonly prefetched = new Map<string, Promise<RemoteAppModule>>();
  /** modules that have finished loading, by remote name (until reset) */
  private readonly modules = new Map<string, RemoteAppModule>();

  constructor(
    readonly remotes: readonly RemoteConfig[],
    private readonly runtime: FederationRuntime,
    private readonly failures: FailureLog,
    /** each remote's load phases, for telemetry: `registry.timeline.on(event => …)` */
    readonly timeline: RemoteTimeline = new RemoteTimeline(),
  ) {}

  /** The remote whose manifest is at `url` (the runtime plugin marks phases by URL and container name). */
  remoteForManifest(url: string): string | undefined {
    return this.remotes.find(
      (remote) => new URL(remote.manifest, globalThis.location?.href).href === new URL(url, globalThis.location?.href).href,
    )?.name;
  }

  /**
   * Starts loading a remote before its slot renders (while the sign-in check runs, instead of after
   * it); the slot's next load() takes over the request in flight. A failed prefetch is forgotten.
   */
  prefetch(remote: RemoteConfig): void {
    if (this.prefetched.has(remote.name)) return;
    const pending = this.load(remote);
    this.prefetched.set(remote.name, pending);
    pending.catch(() => {
      if (this.prefetched.get(remote.name) === pending) this.prefetched.delete(remote.name);
    });
  }

  /**
   * A remote's module if it has already loaded (a prefetch that finished while the sign-in check ran, or
   * an earlier visit), so a slot can render it at once; undefined otherwise.
   */
  loaded(remote: RemoteConfig): RemoteAppModule | undefined {
    return this.modules.get(remote.name);
  }

  /** Loads a remote's module; rejects with a RemoteLoadError that names the remote and the cause. */
  load(remote: RemoteConfig): Promise<RemoteAppModule> {
    const pending = this.prefetched.get(remote.name);
    if (pending) {
      this.prefetched.delete(remote.name);
      return pending;
    }
    return this.fetchModule(remote);
  }

  private async fetchModule(remote: RemoteConfig): Promise<RemoteAppModule> {
    if (!this.registered.has(remote.name)) {
      this.runtime.registerRemotes([{ name: remote.name, entry: remote.manifest }]);
      this.registered.add(remote.name);
    }
    this.failures.clear(remote.name);
    this.timeline.started(remote.name);
    let module: unknown;
    try {
      module = await this.runtime.loadRemote(`${remote.name}/${remote.module.replace(/^\.\//, '')}`);
    } catch (error) {
      const cause = this.failures.take(remote.name);
      const failure = classifyFailure(remote.name, remote.manifest, cause?.lifecycle ?? 'onLoad', cause?.error ?? error);
      this.timeline.failed(remote.name, failure.code);
      throw failure;
    }
    if (!isAppModule(module)) {
      this.timeline.failed(remote.name, 'no-app', 'code');
      throw new RemoteLoadError(
        remote.name,
        'no-app',
        `The remote "${remote.name}" does not expose a React component as ${remote.module}.`,
      );
    }
    this.timeline.done(remote.name, 'code');
    this.modules.set(remote.name, module);
    return module;
  }

  /**
   * Forgets everything the runtime cached for a remote (manifest, entry, module, even a failed one),
   * so the next load really fetches again.
   */
  reset(remote: RemoteConfig): void {
    this.prefetched.delete(remote.name);
    this.modules.delete(remote.name);
    if (this.registered.has(remote.name)) {
      this.runtime.registerRemotes([{ name: remote.name, entry: remote.manifest }], { force: true });
    }
    this.failures.clear(remote.name);
  }
}

function isAppModule(module: unknown): module is RemoteAppModule {
  if (typeof module !== 'object' || module === null) return false;
  const component = (module as { default?: unknown }).default;
  return typeof component === 'function' || (typeof component === 'object' && component !== null);
}
