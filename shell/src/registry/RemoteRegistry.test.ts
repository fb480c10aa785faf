/** @jest-environment node */
import { ManifestHttpError } from './classify';
import { FailureLog } from './FailureLog';
import { chunkLoadingGlobal, RemoteRegistry, type FederationRuntime } from './RemoteRegistry';
import { RemoteReleases } from './RemoteReleases';
import { reportsRemote } from '../test-support/remotes';

const reports = reportsRemote();

function fakeRuntime(load: (id: string) => Promise<unknown>) {
  return { registerRemotes: jest.fn(), loadRemote: jest.fn(load) } satisfies FederationRuntime;
}

const App = () => null;

describe('RemoteRegistry', () => {
  it('registers nothing until a remote is loaded', () => {
    const runtime = fakeRuntime(async () => null);
    new RemoteRegistry([reports], runtime, new FailureLog());
    expect(runtime.registerRemotes).not.toHaveBeenCalled();
  });

  it('registers a remote by its manifest on first load, once, and loads its module', async () => {
    const runtime = fakeRuntime(async () => ({ default: App }));
    const registry = new RemoteRegistry([reports], runtime, new FailureLog());
    await expect(registry.load(reports)).resolves.toEqual({ default: App });
    await registry.load(reports);
    expect(runtime.registerRemotes).toHaveBeenCalledTimes(1);
    expect(runtime.registerRemotes).toHaveBeenCalledWith([{ name: 'reports', entry: reports.manifest }]);
    expect(runtime.loadRemote).toHaveBeenCalledWith('reports/App');
  });

  it('rejects with the cause the runtime reported, named after the remote', async () => {
    const failures = new FailureLog();
    const runtime = fakeRuntime(async () => {
      failures.record('reports', { lifecycle: 'afterResolve', error: new TypeError('Failed to fetch') });
      failures.record('reports', { lifecycle: 'onLoad', error: new Error('RUNTIME-003 wrapper') });
      throw new Error('RUNTIME-003 wrapper');
    });
    const registry = new RemoteRegistry([reports], runtime, failures);
    await expect(registry.load(reports)).rejects.toMatchObject({ name: 'RemoteLoadError', remote: 'reports', code: 'unreachable' });
  });

  it('rejects a module without a component', async () => {
    const registry = new RemoteRegistry(
      [reports],
      fakeRuntime(async () => ({ notAComponent: 1 })),
      new FailureLog(),
    );
    await expect(registry.load(reports)).rejects.toMatchObject({ code: 'no-app' });
  });

  it('forces a re-registration on reset, which drops what the runtime cached, so a retry fetches again', async () => {
    const failures = new FailureLog();
    let up = false;
    const runtime = fakeRuntime(async () => {
      if (up) return { default: App } as never;
      failures.record('reports', { lifecycle: 'afterResolve', error: new ManifestHttpError(reports.manifest, 502) });
      throw new Error('manifest');
    });
    const registry = new RemoteRegistry([reports], runtime, failures);
    await expect(registry.load(reports)).rejects.toMatchObject({ code: 'manifest-missing' });
    up = true;
    registry.reset(reports);
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'reports', entry: reports.manifest }], { force: true });
    await expect(registry.load(reports)).resolves.toEqual({ default: App });
  });

  it('hands a prefetch in flight to the next load instead of loading twice', async () => {
    const runtime = fakeRuntime(async () => ({ default: App }));
    const registry = new RemoteRegistry([reports], runtime, new FailureLog());
    registry.prefetch(reports);
    registry.prefetch(reports);
    await expect(registry.load(reports)).resolves.toEqual({ default: App });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
  });

  it('has a loaded module at hand, synchronously, until the remote is reset', async () => {
    const runtime = fakeRuntime(async () => ({ default: App }));
    const registry = new RemoteRegistry([reports], runtime, new FailureLog());
    expect(registry.loaded(reports)).toBeUndefined();
    registry.prefetch(reports);
    expect(registry.loaded(reports)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(registry.loaded(reports)).toEqual({ default: App });
    registry.reset(reports);
    expect(registry.loaded(reports)).toBeUndefined();
  });

  it('forgets a failed prefetch, so the next load tries again', async () => {
    let calls = 0;
    const runtime = fakeRuntime(async () => {
      calls += 1;
      if (calls === 1) throw new Error('offline');
      return { default: App };
    });
    const registry = new RemoteRegistry([reports], runtime, new FailureLog());
    registry.prefetch(reports);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(registry.load(reports)).resolves.toEqual({ default: App });
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
  });

  it('asks for one automatic attempt at a time: none while one is asked for or in flight, and after a failure only once the wait is over', async () => {
    let up = false;
    const runtime = fakeRuntime(async () => {
      if (up) return { default: App };
      throw new Error('offline');
    });
    const registry = new RemoteRegistry([reports], runtime, new FailureLog());
    const attempt = jest.fn();
    registry.retryWhenDue(reports, attempt);
    registry.retryWhenDue(reports, attempt); // the first one's load has not started yet
    expect(attempt).toHaveBeenCalledTimes(1);
    const pending = registry.load(reports);
    registry.retryWhenDue(reports, attempt); // in flight
    expect(attempt).toHaveBeenCalledTimes(1);
    await expect(pending).rejects.toBeDefined();
    expect(registry.heldFailure(reports)).toMatchObject({ code: 'code-failed' });
    registry.retryWhenDue(reports, attempt); // within the backoff's first second
    expect(attempt).toHaveBeenCalledTimes(1);
    registry.cancelRetry(reports);
    up = true;
    registry.reset(reports);
    expect(registry.heldFailure(reports)).toBeUndefined();
    await expect(registry.load(reports)).resolves.toEqual({ default: App });
  });

  it('revalidates a loaded remote on a new navigation and loads the new release a check found, in place of the old one', async () => {
    const manifests = ['release 1'];
    const releases = new RemoteReleases(async () => new Response(manifests.at(-1)));
    const runtime = fakeRuntime(async () => {
      await releases.runtimeFetch('reports', reports.manifest, {}, true);
      return { default: App };
    });
    const registry = new RemoteRegistry([reports], runtime, new FailureLog(), undefined, releases);
    await registry.open(reports, 'a');
    expect(registry.ready(reports, 'a')).toEqual({ default: App });
    expect(registry.ready(reports, 'b')).toBeUndefined();
    await registry.open(reports, 'b');
    expect(runtime.loadRemote).toHaveBeenCalledTimes(1);
    manifests.push('release 2');
    await registry.open(reports, 'c');
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'reports', entry: reports.manifest }], { force: true });
  });

  it("drops the old release's chunk global, so the new release's entry loads its own chunks", async () => {
    const runtime = fakeRuntime(async () => ({ default: App }));
    const registry = new RemoteRegistry([reports], runtime, new FailureLog());
    await registry.load(reports);
    const page = globalThis as { webpackChunkreports?: unknown[] };
    page.webpackChunkreports = [[['__federation_expose_App'], {}]];
    registry.update(reports);
    expect(chunkLoadingGlobal('reports')).toBe('webpackChunkreports');
    expect('webpackChunkreports' in globalThis).toBe(false);
  });
});
