/** @jest-environment node */
import { FailureLog } from './FailureLog';
import { loadErrorPlugin } from './loadErrorPlugin';
import { RemoteRegistry } from './RemoteRegistry';
import { RemoteTimeline, type RemoteEvent } from './RemoteTimeline';
import { reportsRemote } from '../test-support/remotes';

const reports = reportsRemote();

/** A clock the test moves: each phase takes a known time. */
function setup(load: (plugin: ReturnType<typeof loadErrorPlugin>, clock: { t: number }) => Promise<unknown>) {
  const clock = { t: 0 };
  const timeline = new RemoteTimeline(() => clock.t);
  const events: RemoteEvent[] = [];
  timeline.on((event) => events.push(event));
  const failures = new FailureLog();
  // eslint-disable-next-line prefer-const -- assigned once below: the plugin needs the registry, the registry's loader the plugin
  let plugin!: ReturnType<typeof loadErrorPlugin>;
  const registry = new RemoteRegistry([reports], { registerRemotes: jest.fn(), loadRemote: () => load(plugin, clock) }, failures, timeline);
  plugin = loadErrorPlugin(failures, () => ['reports'], registry);
  return { registry, events, clock };
}

const hooks = (plugin: unknown) =>
  plugin as {
    fetch(url: string, init: RequestInit): Promise<Response>;
    beforeInitContainer(args: { remoteInfo: { name: string } }): unknown;
  };

beforeEach(() => {
  globalThis.fetch = jest.fn(async () => new Response('{}', { status: 200 })) as typeof fetch;
});

test('a load reports manifest, entry, code and render, each with its duration', async () => {
  const { registry, events, clock } = setup(async (plugin, c) => {
    c.t = 40;
    await hooks(plugin).fetch(reports.manifest, {});
    c.t = 100;
    hooks(plugin).beforeInitContainer({ remoteInfo: { name: 'reports' } });
    c.t = 130;
    return { default: () => null };
  });
  await registry.load(reports);
  clock.t = 150;
  registry.timeline.done('reports', 'render');

  expect(events).toEqual([
    { type: 'remotePhase', remote: 'reports', phase: 'manifest', ok: true, durationMs: 40 },
    { type: 'remotePhase', remote: 'reports', phase: 'entry', ok: true, durationMs: 60 },
    { type: 'remotePhase', remote: 'reports', phase: 'code', ok: true, durationMs: 30 },
    { type: 'remotePhase', remote: 'reports', phase: 'render', ok: true, durationMs: 20 },
  ]);
});

test('a manifest that answers 404 fails the manifest phase with the slot reason', async () => {
  globalThis.fetch = jest.fn(async () => ({ ok: false, status: 404 }) as Response) as typeof fetch;
  const { registry, events } = setup(async (plugin, c) => {
    c.t = 25;
    await hooks(plugin).fetch(reports.manifest, {});
    return null;
  });
  await expect(registry.load(reports)).rejects.toMatchObject({ code: 'manifest-missing' });
  expect(events).toEqual([
    { type: 'remotePhase', remote: 'reports', phase: 'manifest', ok: false, durationMs: 25, reason: 'manifest-missing' },
  ]);
});

test('code that is not a component fails the code phase', async () => {
  const { registry, events } = setup(async (plugin) => {
    await hooks(plugin).fetch(reports.manifest, {});
    hooks(plugin).beforeInitContainer({ remoteInfo: { name: 'reports' } });
    return { notAComponent: 1 };
  });
  await expect(registry.load(reports)).rejects.toMatchObject({ code: 'no-app' });
  expect(events.map((e) => (e.type === 'remotePhase' ? [e.phase, e.ok, e.reason] : e.type))).toEqual([
    ['manifest', true, undefined],
    ['entry', true, undefined],
    ['code', false, 'no-app'],
  ]);
});
