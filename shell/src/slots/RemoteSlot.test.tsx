import { act, fireEvent, render, screen } from '@testing-library/react';
import { RemoteLoadError } from '../registry/RemoteLoadError';
import type { RemoteAppModule, RemoteRegistry } from '../registry/RemoteRegistry';
import { RemoteSlot } from './RemoteSlot';
import { reportsRemote } from '../test-support/remotes';

const reports = reportsRemote({ clientRoles: {} });

function fakeRegistry(load: () => Promise<RemoteAppModule>, loaded?: RemoteAppModule) {
  return { load: jest.fn(load), reset: jest.fn(), loaded: jest.fn(() => loaded) } as unknown as RemoteRegistry & {
    load: jest.Mock;
    reset: jest.Mock;
  };
}

const down = () => Promise.reject(new RemoteLoadError('reports', 'unreachable', 'The remote "reports" is not reachable.'));

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));

describe('RemoteSlot', () => {
  it('renders the remote once its module has loaded', async () => {
    const registry = fakeRegistry(async () => ({ default: () => <h1>Reports</h1> }));
    render(<RemoteSlot remote={reports} registry={registry} />);
    expect(screen.getByRole('status').textContent).toContain('Loading Reports…');
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeTruthy();
  });

  it('renders a remote that has already loaded at once, without a loading state', () => {
    const registry = fakeRegistry(async () => ({ default: () => <h1>Reports</h1> }), { default: () => <h1>Reports</h1> });
    render(<RemoteSlot remote={reports} registry={registry} />);
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(registry.load).not.toHaveBeenCalled();
  });

  it('says which remote failed and why, and keeps its neighbours', async () => {
    const registry = fakeRegistry(down);
    render(
      <>
        <p>the rest of the page</p>
        <RemoteSlot remote={reports} registry={registry} />
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
    expect(details.textContent).toContain('The remote "reports" is not reachable.');
    expect(alert.getAttribute('data-reason')).toBe('unreachable');
    expect(screen.getByText('the rest of the page')).toBeTruthy();
  });

  it('catches a remote that throws while rendering', async () => {
    const Broken = () => {
      throw new Error('kaput');
    };
    render(<RemoteSlot remote={reports} registry={fakeRegistry(async () => ({ default: Broken }))} />);
    expect((await screen.findByRole('alert')).textContent).toContain('The remote "reports" failed while starting: kaput');
  });

  it('retries after resetting the runtime cache, and shows the remote once it is back', async () => {
    let up = false;
    const registry = fakeRegistry(() => (up ? Promise.resolve({ default: () => <h1>Reports</h1> }) : down()));
    render(<RemoteSlot remote={reports} registry={registry} />);
    await screen.findByRole('alert');
    up = true;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(registry.reset).toHaveBeenCalledWith(reports);
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeTruthy();
    expect(registry.load).toHaveBeenCalledTimes(2);
  });
});
