import { render, screen } from '@testing-library/react';
import { FailureLog } from '../registry/FailureLog';
import type { ReleaseGate } from '../registry/ReleaseGate';
import { RemoteLoadError } from '../registry/RemoteLoadError';
import { RemoteRegistry } from '../registry/RemoteRegistry';
import { RemoteReleases } from '../registry/RemoteReleases';
import { RetryBackoff } from '../registry/RetryBackoff';
import { RemoteTimeline } from '../registry/RemoteTimeline';
import { reportsRemote } from '../test-support/remotes';
import { RemoteSlot } from './RemoteSlot';

// A remote whose registry entry pins signing keys (decisions/0117), as its slot shows it.
const reports = reportsRemote({ clientRoles: {} });

function registryWith(loadRemote: () => Promise<unknown>, gate: Partial<ReleaseGate>) {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  return new RemoteRegistry(
    [reports],
    { registerRemotes: jest.fn(), loadRemote: jest.fn(loadRemote) },
    new FailureLog(),
    new RemoteTimeline(),
    new RemoteReleases(),
    new RetryBackoff(),
    {
      keysOf: () => undefined,
      explain: async () => undefined,
      forget: () => undefined,
      unsigned: () => false,
      ...gate,
    } as unknown as ReleaseGate,
  );
}

test('a release that did not verify: the slot says so in plain words, and that its team has been told', async () => {
  const registry = registryWith(async () => {
    throw new RemoteLoadError('reports', 'release-unverified', 'The release of the remote "reports" could not be verified (unknown-key)');
  }, {});
  render(<RemoteSlot remote={reports} registry={registry} navigation="a" />);
  const alert = await screen.findByRole('alert');
  expect(alert.getAttribute('data-reason')).toBe('release-unverified');
  expect(alert.textContent).toContain(
    'This release of Reports could not be verified, so it was not run. Its team has been told; the rest of Gatehouse still works.',
  );
});

test('an unsigned build let through by a development shell is marked on its slot', async () => {
  const registry = registryWith(async () => ({ default: () => <h1>Reports</h1> }), { unsigned: () => true });
  render(<RemoteSlot remote={reports} registry={registry} navigation="a" />);
  expect(await screen.findByRole('heading', { name: 'Reports' })).toBeTruthy();
  expect(screen.getByRole('note').textContent).toBe('Unsigned development build of Reports: its release was not verified.');
});

test('a verified release carries no marker', async () => {
  const registry = registryWith(async () => ({ default: () => <h1>Reports</h1> }), {});
  render(<RemoteSlot remote={reports} registry={registry} navigation="a" />);
  expect(await screen.findByRole('heading', { name: 'Reports' })).toBeTruthy();
  expect(screen.queryByRole('note')).toBeNull();
});
