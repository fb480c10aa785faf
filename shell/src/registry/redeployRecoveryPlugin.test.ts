import type { RemoteConfig } from '../config/types';
import { isMissingCode, redeployRecoveryPlugin, REDEPLOY_PARAM } from './redeployRecoveryPlugin';

const billing: RemoteConfig = {
  name: 'billing',
  manifest: 'http://localhost:4004/mf-manifest.json',
  module: './App',
  route: '/billing',
  title: 'Billing',
  realmRoles: [],
  clientRoles: {},
};

function chunkLoadError(): Error {
  const error = new Error('Loading chunk 504 failed.\n(missing: http://localhost:4004/504.1234abcd.js)');
  error.name = 'ChunkLoadError';
  return error;
}

/** A federation runtime instance that records what the plugin asks of it. */
function fakeRuntime(loadRemote: (id: string) => Promise<unknown>) {
  const registered: Array<{ entry: string; force: boolean | undefined }> = [];
  return {
    registered,
    origin: {
      registerRemotes: (remotes: { name: string; entry: string }[], options?: { force?: boolean }) => {
        for (const remote of remotes) registered.push({ entry: remote.entry, force: options?.force });
      },
      loadRemote: jest.fn(loadRemote),
    },
  };
}

type ErrorHook = (args: object) => Promise<unknown>;
const hookOf = (now = () => 42) =>
  (redeployRecoveryPlugin(() => [billing], now) as unknown as { errorLoadRemote: ErrorHook }).errorLoadRemote;

describe('redeployRecoveryPlugin', () => {
  it('re-fetches the manifest with a cache-buster, registers it and loads the module once more', async () => {
    const runtime = fakeRuntime(async () => ({ default: 'release 2' }));
    const result = await hookOf()({
      id: 'billing/App',
      error: chunkLoadError(),
      lifecycle: 'onLoad',
      remote: { name: 'billing' },
      origin: runtime.origin,
    });
    expect(result).toEqual({ default: 'release 2' });
    expect(runtime.registered).toEqual([{ entry: `http://localhost:4004/mf-manifest.json?${REDEPLOY_PARAM}=42`, force: true }]);
    expect(runtime.origin.loadRemote).toHaveBeenCalledTimes(1);
    expect(runtime.origin.loadRemote).toHaveBeenCalledWith('billing/App');
  });

  it('retries only once: a failure of the retry is passed on', async () => {
    const hook = hookOf();
    // the retry fails again the same way; the runtime reports that failure to the same hook
    const runtime: ReturnType<typeof fakeRuntime> = fakeRuntime(async (id) => {
      const nested = await hook({ id, error: chunkLoadError(), lifecycle: 'onLoad', remote: { name: 'billing' }, origin: runtime.origin });
      if (nested === undefined) throw chunkLoadError();
      return nested;
    });
    await expect(
      hook({ id: 'billing/App', error: chunkLoadError(), lifecycle: 'onLoad', remote: { name: 'billing' }, origin: runtime.origin }),
    ).rejects.toThrow('Loading chunk 504 failed');
    expect(runtime.origin.loadRemote).toHaveBeenCalledTimes(1);
  });

  it('leaves failures that a fresh manifest cannot cure alone', async () => {
    const runtime = fakeRuntime(async () => ({ default: 'x' }));
    const hook = hookOf();
    expect(
      await hook({
        id: 'billing/App',
        error: new Error('boom while rendering'),
        lifecycle: 'onLoad',
        remote: { name: 'billing' },
        origin: runtime.origin,
      }),
    ).toBeUndefined();
    expect(
      await hook({
        id: 'http://localhost:4004/mf-manifest.json',
        error: chunkLoadError(),
        lifecycle: 'afterResolve',
        origin: runtime.origin,
      }),
    ).toBeUndefined();
    expect(
      await hook({ id: 'other/App', error: chunkLoadError(), lifecycle: 'onLoad', remote: { name: 'other' }, origin: runtime.origin }),
    ).toBeUndefined();
    expect(runtime.origin.loadRemote).not.toHaveBeenCalled();
  });
});

describe('isMissingCode', () => {
  it('recognises a missing chunk and a script the runtime could not load', () => {
    expect(isMissingCode(chunkLoadError())).toBe(true);
    expect(isMissingCode(new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources'))).toBe(true);
    expect(isMissingCode(new TypeError('x is not a function'))).toBe(false);
    expect(isMissingCode('Loading chunk 1 failed')).toBe(false);
  });
});
