import { fireEvent, render, screen } from '@testing-library/react';
import { RemoteOverridesBanner } from './RemoteOverridesBanner';

const active = [
  {
    name: 'profile',
    manifest: 'http://localhost:3005/mf-manifest.json',
    registered: 'http://localhost:3001/mf-manifest.json',
    unverified: false,
  },
];

describe('RemoteOverridesBanner', () => {
  it('shows nothing without overrides', () => {
    const { container } = render(<RemoteOverridesBanner overrides={{ active: [], refused: [] }} onClear={() => {}} />);
    expect(container.innerHTML).toBe('');
  });

  it('shows which remote comes from where, with a way to clear it', () => {
    const onClear = jest.fn();
    render(<RemoteOverridesBanner overrides={{ active, refused: [] }} onClear={onClear} />);
    expect(screen.getByRole('status').textContent).toContain(
      'Override active This tab loads profile from http://localhost:3005/mf-manifest.json.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear overrides' }));
    expect(onClear).toHaveBeenCalledTimes(1);
  });

  it('says that an overridden remote whose registry entry pins signing keys runs unverified', () => {
    render(<RemoteOverridesBanner overrides={{ active: [{ ...active[0]!, unverified: true }], refused: [] }} onClear={() => {}} />);
    expect(screen.getByRole('status').textContent).toContain(
      "profile from http://localhost:3005/mf-manifest.json (not verified: its signed releases are checked at the registry's address only).",
    );
  });

  it('says why an override was refused', () => {
    render(
      <RemoteOverridesBanner
        overrides={{ active: [], refused: [{ name: 'profile', manifest: 'https://evil.example/m.json', reason: 'not allowed.' }] }}
        onClear={() => {}}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe('The override of profile to https://evil.example/m.json was refused: not allowed.');
  });
});
