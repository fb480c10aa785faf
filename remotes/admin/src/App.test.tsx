import { AuthProvider } from '@gatehouse/auth-lib';
import { createTestSession } from '@gatehouse/auth-lib/testing';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import AdminApp from './App';

describe('AdminApp', () => {
  it('shows the current session and signs out of it', () => {
    const session = createTestSession({ user: { username: 'alice', name: 'Alice Anders' }, realmRoles: ['admin'], acr: 'gold' });
    session.setState({ sessionId: 'sid-123', signedInAt: Date.UTC(2026, 0, 1), tokenExpiresAt: Date.UTC(2026, 0, 1, 0, 5) });
    render(
      <AuthProvider session={session}>
        <MemoryRouter>
          <AdminApp />
        </MemoryRouter>
      </AuthProvider>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Admin');
    expect(screen.getByTestId('session-id').textContent).toBe('sid-123');
    expect(screen.getByTestId('signed-in-at').textContent).not.toBe('—');
    expect(screen.getByTestId('acr').textContent).toBe('gold');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out of this session' }));
    expect(session.calls.logout).toEqual([{ redirectTo: '/' }]);
  });
});
