import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { AuthError } from '../errors';
import { createTestSession } from '../testing';
import { AuthProvider } from './AuthProvider';
import { RequireAuth } from './RequireAuth';
import { RequireRole } from './RequireRole';
import { SignedInUser } from './SignedInUser';
import type { TestSession } from '../testing';
import type { ReactNode } from 'react';

function renderWith(session: TestSession, ui: ReactNode) {
  return render(
    <StrictMode>
      <AuthProvider session={session}>{ui}</AuthProvider>
    </StrictMode>,
  );
}

describe('<RequireAuth>', () => {
  test('renders its children for a signed-in visitor', () => {
    renderWith(createTestSession(), <RequireAuth>secret</RequireAuth>);
    expect(screen.getByText('secret')).toBeTruthy();
  });

  test('renders a loading state while the session loads', () => {
    renderWith(createTestSession({ status: 'loading' }), <RequireAuth>secret</RequireAuth>);
    expect(screen.getByRole('status').textContent).toMatch(/Checking your sign-in/);
    expect(screen.queryByText('secret')).toBeNull();
  });

  test('sends a signed-out visitor to sign in, back to the current path, once (StrictMode)', () => {
    window.history.pushState({}, '', '/reports?year=2024');
    const session = createTestSession({ user: null });
    renderWith(session, <RequireAuth>secret</RequireAuth>);
    expect(session.calls.login).toEqual([{ redirectTo: '/reports?year=2024' }]);
    expect(screen.queryByText('secret')).toBeNull();
    window.history.pushState({}, '', '/');
  });

  test('a second guard on the page, or a remount, does not start a second sign-in', () => {
    const session = createTestSession({ user: null });
    const { unmount } = renderWith(
      session,
      <>
        <RequireAuth>one</RequireAuth>
        <RequireAuth>two</RequireAuth>
      </>,
    );
    unmount();
    renderWith(session, <RequireAuth>again</RequireAuth>);
    expect(session.calls.login).toHaveLength(1);
  });

  test('renders the fallback instead when one is given', () => {
    const session = createTestSession({ user: null });
    renderWith(session, <RequireAuth fallback={<p>Please sign in</p>}>secret</RequireAuth>);
    expect(screen.getByText('Please sign in')).toBeTruthy();
    expect(session.calls.login).toEqual([]);
  });

  test('shows the provider error with a way to try again', () => {
    const session = createTestSession({ status: 'loading' });
    renderWith(session, <RequireAuth>secret</RequireAuth>);
    act(() => session.setState({ status: 'error', error: new AuthError('idp-unreachable', 'The identity provider at x did not answer') }));
    expect(screen.getByRole('alert').textContent).toMatch(/did not answer/);
    act(() => screen.getByRole('button', { name: 'Try again' }).click());
    expect(session.calls.retry).toBe(1);
  });

  test('follows the session: hides the children when the session ends', () => {
    const session = createTestSession();
    renderWith(session, <RequireAuth fallback="signed out">secret</RequireAuth>);
    act(() => session.signOut('session-ended'));
    expect(screen.getByText('signed out')).toBeTruthy();
  });
});

describe('<RequireRole>', () => {
  const roles = { realmRoles: ['user', 'admin'], clientRoles: { reports: ['viewer'] } };

  test('renders its children when the user has the realm role', () => {
    renderWith(
      createTestSession(roles),
      <RequireRole realm="admin" fallback="denied">
        admin page
      </RequireRole>,
    );
    expect(screen.getByText('admin page')).toBeTruthy();
  });

  test('needs every realm role listed', () => {
    renderWith(
      createTestSession(roles),
      <RequireRole realm={['admin', 'owner']} fallback="denied">
        admin page
      </RequireRole>,
    );
    expect(screen.getByText('denied')).toBeTruthy();
  });

  test('checks a client role', () => {
    renderWith(
      createTestSession(roles),
      <RequireRole client={['reports', 'viewer']} fallback="denied">
        reports
      </RequireRole>,
    );
    expect(screen.getByText('reports')).toBeTruthy();
  });

  test('renders the fallback without the role, and for a signed-out visitor', () => {
    const { unmount } = renderWith(
      createTestSession({ realmRoles: ['user'] }),
      <RequireRole client={['reports', 'viewer']} fallback="denied">
        reports
      </RequireRole>,
    );
    expect(screen.getByText('denied')).toBeTruthy();
    unmount();
    renderWith(
      createTestSession({ user: null }),
      <RequireRole realm="user" fallback="denied">
        page
      </RequireRole>,
    );
    expect(screen.getByText('denied')).toBeTruthy();
  });

  test('renders a loading state while the session loads', () => {
    renderWith(createTestSession({ status: 'loading' }), <RequireRole realm="user">page</RequireRole>);
    expect(screen.getByRole('status')).toBeTruthy();
  });
});

describe('<SignedInUser>', () => {
  test("shows the signed-in user's name and signs out to the given page", () => {
    const session = createTestSession();
    renderWith(session, <SignedInUser redirectTo="/bye" />);
    expect(screen.getByTestId('user-name').textContent).toBe(session.getSnapshot().user!.name);
    act(() => screen.getByRole('button', { name: 'Sign out' }).click());
    expect(session.calls.logout).toEqual([{ redirectTo: '/bye' }]);
  });

  test('shows nothing while no one is signed in', () => {
    const { container } = renderWith(createTestSession({ user: null }), <SignedInUser />);
    expect(container.textContent).toBe('');
  });
});
