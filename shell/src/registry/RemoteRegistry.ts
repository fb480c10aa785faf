import type { ComponentType } from 'react';
import type { RemoteConfig } from '../config/types';
import { classifyFailure } from './classify';
import type { FailureLog } from './FailureLog';
import { RemoteLoadError } from './RemoteLoadError';
import { REDEPLOY_PARAM } from './redeployRecoveryPlugin';
import type { ReleaseGate } from './ReleaseGate';
import { RemoteReleases } from './RemoteReleases';
import { RemoteTimeline } from './RemoteTimeline';
import { RetryBackoff } from './RetryBackoff';

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
 * so that nothing of a remote is fetched before its route is. A navigation into a remote that has
 * loaded revalidates its manifest and loads a new release in place (decisions/0046); a failed remote is
 * tried afresh, never from the runtime's cache, with at most one attempt in flight.
 */
export class RemoteRegistry {
  private readonly registered = new Set<string>();
  /** the one attempt in flight per remote (a prefetch's too, which the slot's load takes over) */
  private readonly inFlight = new Map<string, Promise<RemoteAppModule>>();
  /** modules that have finished loading, by remote name (until reset) */
  private readonly modules = new Map<string, RemoteAppModule>();
  /** the last failure per remote, until it loads or is reset */
  private readonly lastFailures = new Map<string, unknown>();
  /** remotes whose next load is a new release found by a check */
  private readonly updating = new Set<string>();
  /** remotes with an automatic attempt asked for whose load has not started yet (it starts in the slot's effect) */
  private readonly attemptsAsked = new Set<string>();

  constructor(
    readonly remotes: readonly RemoteConfig[],
    private readonly runtime: FederationRuntime,
    private readonly failures: FailureLog,
    /** each remote's load phases and releases, for telemetry: `registry.timeline.on(event => …)` */
    readonly timeline: RemoteTimeline = new RemoteTimeline(),
    private readonly releases: RemoteReleases = new RemoteReleases(),
    private readonly backoff: RetryBackoff = new RetryBackoff(),
    /** the check of signed releases for remotes that pin keys (decisions/0117); none: nothing is checked */
    readonly gate?: ReleaseGate,
  ) {}

  /** The remote whose manifest is at `url`, with or without the redeploy recovery's cache-buster. */
  remoteForManifest(url: string): string | undefined {
    const target = withoutCacheBuster(url);
    return this.remotes.find((remote) => withoutCacheBuster(remote.manifest) === target)?.name;
  }

  /**
   * The runtime's manifest fetch (through the shell's runtime plugin): a new release that this navigation's
   * check found is answered from memory, anything else is fetched and becomes the release running.
   */
  fetchManifest(url: string, init: RequestInit): Promise<Response> {
    const name = this.remoteForManifest(url);
    const remote = this.remotes.find((r) => r.name === name);
    if (!remote) return fetch(url, init);
    const response = this.releases.runtimeFetch(remote.name, url, init, absolute(url) === absolute(remote.manifest));
    if (!this.gate?.keysOf(remote.name)) return response;
    // a pinned remote's manifest reaches the runtime only as the bytes its verified release signed
    return this.gate.admitManifest(remote.name, url, response).catch((refusal: unknown) => {
      if (refusal instanceof RemoteLoadError) this.failures.record(remote.name, { lifecycle: 'afterResolve', error: refusal });
      throw refusal;
    });
  }

  /**
   * Starts loading a remote before its slot renders (while the sign-in check runs, instead of after
   * it); the slot takes over the request in flight, and that is the first navigation's manifest request.
   */
  prefetch(remote: RemoteConfig): void {
    if (this.inFlight.has(remote.name)) return;
    this.releases.loading(remote.name, null);
    this.load(remote).catch(() => undefined);
  }

  /** A remote's module if it has already loaded (until reset); undefined otherwise. */
  loaded(remote: RemoteConfig): RemoteAppModule | undefined {
    return this.modules.get(remote.name);
  }

  /**
   * The module a navigation into the remote can show at once: loaded, and this navigation has already
   * fetched its manifest (the prefetch of the first one, or an earlier look). Undefined: use {@link open}.
   */
  ready(remote: RemoteConfig, navigation: string): RemoteAppModule | undefined {
    const module = this.modules.get(remote.name);
    return module && this.releases.checked(remote.name, navigation) ? module : undefined;
  }

  /**
   * The failure a navigation into a remote that failed moments ago shows at once, without asking again
   * (the backoff still waits, nothing is in flight); undefined when it may be tried now.
   */
  heldFailure(remote: RemoteConfig): unknown {
    if (this.modules.has(remote.name) || this.inFlight.has(remote.name) || this.backoff.wait(remote.name) === 0) return undefined;
    return this.lastFailures.get(remote.name);
  }

  /**
   * A navigation into the remote's slot: a remote not loaded yet is loaded (its manifest request is this
   * navigation's one); a loaded one has its manifest revalidated first, and a new release is loaded in
   * place of the old one. A check that cannot read the manifest keeps the release running.
   */
  open(remote: RemoteConfig, navigation: string): Promise<RemoteAppModule> {
    const module = this.modules.get(remote.name);
    if (!module) {
      if (!this.inFlight.has(remote.name)) this.releases.loading(remote.name, navigation);
      return this.load(remote);
    }
    return this.releases.check(remote.name, remote.manifest, navigation).then((found) => {
      if (found !== 'changed') return module;
      if (this.modules.get(remote.name) === module) this.update(remote);
      return this.load(remote);
    });
  }

  /**
   * Revalidates the manifest of the remote on screen for `navigation`; true while a new release it found
   * waits (the slot offers Update). The timeline hears `remoteUpdateAvailable` once per new release.
   */
  async lookForUpdate(remote: RemoteConfig, navigation: string): Promise<boolean> {
    if (!this.modules.has(remote.name)) return false;
    if ((await this.releases.check(remote.name, remote.manifest, navigation)) !== 'changed') return false;
    if (this.releases.announce(remote.name)) this.timeline.updateAvailable(remote.name);
    return this.releases.waiting(remote.name);
  }

  /** Loads a remote's module; rejects with a RemoteLoadError that names the remote and the cause. */
  load(remote: RemoteConfig): Promise<RemoteAppModule> {
    this.attemptsAsked.delete(remote.name);
    const pending = this.inFlight.get(remote.name);
    if (pending) return pending;
    const attempt = this.fetchModule(remote);
    this.inFlight.set(remote.name, attempt);
    const settled = () => {
      if (this.inFlight.get(remote.name) === attempt) this.inFlight.delete(remote.name);
    };
    attempt.then(settled, settled);
    return attempt;
  }

  private async fetchModule(remote: RemoteConfig): Promise<RemoteAppModule> {
    if (!this.registered.has(remote.name)) {
      this.runtime.registerRemotes([{ name: remote.name, entry: remote.manifest }]);
      this.registered.add(remote.name);
    } else if (this.lastFailures.has(remote.name)) {
      // a failed remote is tried afresh: the runtime would otherwise answer from what it cached
      this.resetRuntime(remote);
    }
    try {
      const module = await this.loadModule(remote);
      this.modules.set(remote.name, module);
      this.lastFailures.delete(remote.name);
      this.backoff.succeeded(remote.name);
      if (this.updating.delete(remote.name)) this.timeline.updated(remote.name);
      return module;
    } catch (failure) {
      this.lastFailures.set(remote.name, failure);
      this.backoff.failed(remote.name);
      throw failure;
    }
  }

  private async loadModule(remote: RemoteConfig): Promise<RemoteAppModule> {
    this.failures.clear(remote.name);
    this.timeline.started(remote.name);
    let module: unknown;
    try {
      module = await this.runtime.loadRemote(`${remote.name}/${remote.module.replace(/^\.\//, '')}`);
    } catch (error) {
      // a file of a verified release that failed to load may be another than the one signed
      const unsigned = await this.gate?.explain(remote.name);
      if (unsigned) this.failures.clear(remote.name);
      if (unsigned) this.failures.record(remote.name, { lifecycle: 'onLoad', error: unsigned });
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
    return module;
  }

  /**
   * Asks for an automatic attempt at a failed remote (a navigation into it, `online`, the tab visible):
   * `attempt` runs now, or once when the backoff's wait ends; never while an attempt is in flight.
   */
  retryWhenDue(remote: RemoteConfig, attempt: () => void): void {
    const ask = () => {
      this.attemptsAsked.add(remote.name);
      attempt();
    };
    this.backoff.ask(remote.name, ask, () => this.inFlight.has(remote.name) || this.attemptsAsked.has(remote.name));
  }

  /** Drops an automatic attempt still waiting (the slot is gone, or the visitor pressed Retry). */
  cancelRetry(remote: RemoteConfig): void {
    this.backoff.cancel(remote.name);
  }

  /**
   * Forgets everything the runtime cached for a remote (manifest, entry, module, even a failed one),
   * so the next load really fetches again (Retry).
   */
  reset(remote: RemoteConfig): void {
    this.releases.forgetFresh(remote.name);
    this.resetRuntime(remote);
  }

  /** Drops the release running so that the next load is the new release a check found (Update). */
  update(remote: RemoteConfig): void {
    this.updating.add(remote.name);
    this.resetRuntime(remote);
  }

  private resetRuntime(remote: RemoteConfig): void {
    this.modules.delete(remote.name);
    this.lastFailures.delete(remote.name);
    if (this.registered.has(remote.name)) {
      this.runtime.registerRemotes([{ name: remote.name, entry: remote.manifest }], { force: true });
    }
    // The remote's webpack runtime keeps the chunks it has run in a page global named after its uniqueName
    // (the preset sets it to the remote's name). A new release's entry would adopt that array, take the old
    // release's chunk ids as already installed, and never load its own ("Cannot read properties of
    // undefined (reading 'call')"), so the next release starts with none.
    Reflect.deleteProperty(globalThis, chunkLoadingGlobal(remote.name));
    this.failures.clear(remote.name);
    this.gate?.forget(remote.name);
  }
}

/** webpack's default `output.chunkLoadingGlobal` for a build whose `uniqueName` is the remote's name (a JS identifier). */
export function chunkLoadingGlobal(remote: string): string {
  return `webpackChunk${remote}`;
}

function absolute(url: string): string {
  return new URL(url, globalThis.location?.href).href;
}

function withoutCacheBuster(url: string): string {
  const parsed = new URL(url, globalThis.location?.href);
  parsed.searchParams.delete(REDEPLOY_PARAM);
  return parsed.href;
}

function isAppModule(module: unknown): module is RemoteAppModule {
  if (typeof module !== 'object' || module === null) return false;
  const component = (module as { default?: unknown }).default;
  return typeof component === 'function' || (typeof component === 'object' && component !== null);
}
