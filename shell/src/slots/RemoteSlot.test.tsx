import { act, fireEvent, render, screen } from '@testing-library/react';
import { FailureLog } from '../registry/FailureLog';
import { RemoteRegistry, type RemoteAppModule } from '../registry/RemoteRegistry';
import { RemoteReleases } from '../registry/RemoteReleases';
import { RetryBackoff } from '../registry/RetryBackoff';
import { RemoteTimeline, type RemoteEvent } from '../registry/RemoteTimeline';
import { REVALIDATION_QUIET_MS, RemoteSlot } from './RemoteSlot';
import { reportsRemote } from '../test-support/remotes';

const reports = reportsRemote({ clientRoles: {} });

/** The network's answers at the edge (jsdom has no fetch): a body and a status. */
class FakeResponse {
  readonly ok: boolean;
  constructor(
    private readonly body: string,
    readonly init: { status?: number } = {},
  ) {
    this.ok = (init.status ?? 200) < 300;
  }
  text = async () => this.body;
  clone = () => new FakeResponse(this.body, this.init);
}

const release = (n: number): RemoteAppModule => ({ default: () => <h1>Reports release {n}</h1> });

/**
 * A real registry over a fake federation runtime: `server.release` is what the remote's server has (its
 * manifest text and module), `server.up` whether it answers. The runtime asks the registry for the
 * manifest, as the shell's runtime plugin does, then "loads" that release's module.
 */
function setup() {
  const server = { release: 1, up: true, manifestRequests: 0, slowMs: 0 };
  const events: RemoteEvent[] = [];
  const releases = new RemoteReleases(async () => {
    server.manifestRequests += 1;
    if (server.slowMs > 0) await new Promise((resolve) => setTimeout(resolve, server.slowMs));
    if (!server.up) throw new TypeError('Failed to fetch');
    return new FakeResponse(`manifest of release ${server.release}`) as unknown as Response;
  });
  // eslint-disable-next-line prefer-const -- assigned once below: the runtime needs the registry, the registry the runtime
  let registry!: RemoteRegistry;
  const failures = new FailureLog();
  const runtime = {
    registerRemotes: jest.fn(),
    loadRemote: jest.fn(async () => {
      let manifest: string;
      try {
        manifest = await (await registry.fetchManifest(reports.manifest, {})).text();
      } catch (error) {
        // as the shell's runtime plugin records a failed manifest fetch
        failures.record('reports', { lifecycle: 'afterResolve', error });
        throw error;
      }
      return release(Number(manifest.replace('manifest of release ', '')));
    }),
  };
  const timeline = new RemoteTimeline();
  timeline.on((event) => events.push(event));
  registry = new RemoteRegistry([reports], runtime, failures, timeline, releases, new RetryBackoff());
  return { server, registry, runtime, events };
}

function Slot({ registry, navigation }: { registry: RemoteRegistry; navigation: string }) {
  return <RemoteSlot remote={reports} registry={registry} navigation={navigation} />;
}

beforeAll(() => {
  (globalThis as { Response?: unknown }).Response = FakeResponse;
});
beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));

describe('RemoteSlot', () => {
  it('renders the remote once its module has loaded, with one manifest request', async () => {
    const { registry, server } = setup();
    render(<Slot registry={registry} navigation="a" />);
    expect(screen.getByRole('status').textContent).toContain('Loading Reports…');
    expect(await screen.findByRole('heading', { name: 'Reports release 1' })).toBeTruthy();
    expect(server.manifestRequests).toBe(1);
  });

  it('renders a remote its prefetch has loaded at once, without a loading state or a second request', async () => {
    const { registry, server } = setup();
    registry.prefetch(reports);
    await act(async () => undefined);
    render(<Slot registry={registry} navigation="default" />);
    expect(screen.getByRole('heading', { name: 'Reports release 1' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(server.manifestRequests).toBe(1);
  });

  it('says which remote failed and why, and keeps its neighbours', async () => {
    const { registry, server } = setup();
    server.up = false;
    render(
      <>
        <p>the rest of the page</p>
        <Slot registry={registry} navigation="a" />
      </>,
    );
    const alert = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Reports is unavailable');
    // plain words for the visitor; the code and the technical message behind a closed "Details"
    expect(alert.querySelector(':scope > p')?.textContent).toBe(
      'Reports cannot be reached right now. Try again in a moment with Retry; the rest of Gatehouse still works.',
    );
    const details = screen.getByTestId('details');
    expect(details.tagName).toBe('DETAILS');
    expect(details.hasAttribute('open')).toBe(false);
    expect(screen.getByTestId('details-code').textContent).toBe('unreachable');
    expect(details.textContent).toContain('The remote "reports" is not reachable');
    expect(alert.getAttribute('data-reason')).toBe('unreachable');
    expect(screen.getByText('the rest of the page')).toBeTruthy();
  });

  it('catches a remote that throws while rendering', async () => {
    const Broken = () => {
      throw new Error('kaput');
    };
    const { registry, runtime } = setup();
    runtime.loadRemote.mockImplementation(async () => ({ default: Broken }));
    render(<Slot registry={registry} navigation="a" />);
    expect((await screen.findByRole('alert')).textContent).toContain('The remote "reports" failed while starting: kaput');
  });

  it('retries after resetting the runtime cache, and shows the remote once it is back', async () => {
    const { registry, runtime, server } = setup();
    server.up = false;
    render(<Slot registry={registry} navigation="a" />);
    await screen.findByRole('alert');
    server.up = true;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'reports', entry: reports.manifest }], { force: true });
    expect(await screen.findByRole('heading', { name: 'Reports release 1' })).toBeTruthy();
    expect(runtime.loadRemote).toHaveBeenCalledTimes(2);
  });
});

describe('RemoteSlot, a new release under the open page', () => {
  it('revalidates on the next navigation into the remote and shows a new release there, without a second manifest request', async () => {
    const { registry, server, events } = setup();
    const first = render(<Slot registry={registry} navigation="a" />);
    await screen.findByRole('heading', { name: 'Reports release 1' });
    first.unmount();

    // unchanged: one revalidation, the same release
    const second = render(<Slot registry={registry} navigation="b" />);
    expect(await screen.findByRole('heading', { name: 'Reports release 1' })).toBeTruthy();
    expect(server.manifestRequests).toBe(2);
    second.unmount();

    server.release = 2;
    render(<Slot registry={registry} navigation="c" />);
    expect(await screen.findByRole('heading', { name: 'Reports release 2' })).toBeTruthy();
    expect(server.manifestRequests).toBe(3);
    expect(events.filter((e) => e.type !== 'remotePhase')).toEqual([{ type: 'remoteUpdated', remote: 'reports' }]);
  });

  it('shows nothing for a quick revalidation of a loaded remote, and says it is loading once the check takes long', async () => {
    const { registry, server } = setup();
    const first = render(<Slot registry={registry} navigation="a" />);
    await screen.findByRole('heading', { name: 'Reports release 1' });
    first.unmount();

    jest.useFakeTimers();
    try {
      server.slowMs = 1_000;
      render(<Slot registry={registry} navigation="b" />);
      await act(async () => jest.advanceTimersByTime(REVALIDATION_QUIET_MS - 50));
      expect(screen.queryByRole('status')).toBeNull(); // no "Loading …" flash for a 304's round trip
      await act(async () => jest.advanceTimersByTime(100));
      expect(screen.getByRole('status').textContent).toContain('Loading Reports…');
      await act(async () => jest.advanceTimersByTime(1_000));
      expect(screen.getByRole('heading', { name: 'Reports release 1' })).toBeTruthy();
    } finally {
      jest.useRealTimers();
    }
  });

  it('offers a new release of the remote on screen, and Update swaps it in place', async () => {
    const { registry, server, events } = setup();
    const view = render(<Slot registry={registry} navigation="a" />);
    await screen.findByRole('heading', { name: 'Reports release 1' });
    expect(screen.getByTestId('update-offer').getAttribute('aria-live')).toBe('polite');

    view.rerender(<Slot registry={registry} navigation="b" />); // unchanged: no offer
    await act(async () => undefined);
    expect(server.manifestRequests).toBe(2);
    expect(screen.getByTestId('update-offer').textContent).toBe('');

    server.release = 2;
    view.rerender(<Slot registry={registry} navigation="c" />);
    const update = await screen.findByRole('button', { name: 'Update' });
    expect(screen.getByTestId('update-offer').textContent).toContain('A new version of Reports is available.');
    expect(screen.getByRole('heading', { name: 'Reports release 1' })).toBeTruthy(); // still running
    expect(events.filter((e) => e.type !== 'remotePhase')).toEqual([{ type: 'remoteUpdateAvailable', remote: 'reports' }]);

    await act(async () => fireEvent.click(update));
    const heading = await screen.findByRole('heading', { name: 'Reports release 2' });
    expect(document.activeElement).toBe(heading);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect(server.manifestRequests).toBe(3); // Update used the manifest the check read
    expect(events.filter((e) => e.type !== 'remotePhase')).toEqual([
      { type: 'remoteUpdateAvailable', remote: 'reports' },
      { type: 'remoteUpdated', remote: 'reports' },
    ]);
  });
});

describe('RemoteSlot, a failure heals by itself', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  async function failed() {
    const context = setup();
    context.server.up = false;
    const view = render(<Slot registry={context.registry} navigation="a" />);
    await act(async () => undefined);
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(context.server.manifestRequests).toBe(1);
    return { ...context, view };
  }

  it('tries again when the browser comes back online, once per wait however often it says so', async () => {
    const { server } = await failed();
    server.up = true;
    await act(async () => {
      for (let i = 0; i < 10; i += 1) window.dispatchEvent(new Event('online'));
    });
    expect(server.manifestRequests).toBe(1); // within the first second: nothing yet
    await act(async () => jest.advanceTimersByTime(1_000));
    expect(server.manifestRequests).toBe(2);
    expect(screen.getByRole('heading', { name: 'Reports release 1' })).toBeTruthy();
  });

  it('tries again when the tab becomes visible, and asks a remote that stays down ever less often', async () => {
    const { server } = await failed();
    const visible = async () => act(async () => document.dispatchEvent(new Event('visibilitychange')));
    await act(async () => jest.advanceTimersByTime(1_000));
    await visible();
    expect(server.manifestRequests).toBe(2); // the wait was over: at once
    await visible();
    await visible();
    await act(async () => jest.advanceTimersByTime(1_999));
    expect(server.manifestRequests).toBe(2);
    await act(async () => jest.advanceTimersByTime(1));
    expect(server.manifestRequests).toBe(3); // one attempt for the asks during the 2 s wait
    await act(async () => jest.advanceTimersByTime(60_000));
    expect(server.manifestRequests).toBe(3); // nobody asked again: no polling
    expect(screen.getByRole('alert').getAttribute('data-reason')).toBe('unreachable');
  });

  it('tries again on the next navigation into it, after a failure of moments ago is shown as it was', async () => {
    const { registry, server, view } = await failed();
    view.unmount();
    server.up = true;
    const again = render(<Slot registry={registry} navigation="b" />);
    await act(async () => undefined);
    expect(screen.getByRole('alert').getAttribute('data-reason')).toBe('unreachable'); // held: asked 0 s ago
    expect(server.manifestRequests).toBe(1);
    await act(async () => jest.advanceTimersByTime(1_000));
    expect(screen.getByRole('heading', { name: 'Reports release 1' })).toBeTruthy();
    expect(server.manifestRequests).toBe(2);
    again.unmount();
  });

  it('tries again at once on a navigation after the wait, and on one inside the route', async () => {
    const { registry, server, view } = await failed();
    await act(async () => jest.advanceTimersByTime(1_000));
    view.rerender(<Slot registry={registry} navigation="b" />);
    await act(async () => undefined);
    expect(server.manifestRequests).toBe(2);
    expect(screen.getByRole('alert')).toBeTruthy();
    view.unmount();
    server.up = true;
    await act(async () => jest.advanceTimersByTime(2_000));
    render(<Slot registry={registry} navigation="c" />);
    await act(async () => undefined);
    expect(screen.getByRole('heading', { name: 'Reports release 1' })).toBeTruthy();
    expect(server.manifestRequests).toBe(3);
  });
});
