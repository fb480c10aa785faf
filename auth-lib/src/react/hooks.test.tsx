import { act, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { clearPageSession, registerSession } from '../session/registry';
import { createTestSession, type TestSession } from '../testing';
import { AuthProvider } from './AuthProvider';
import { useAuth } from './useAuth';
import { useRoles } from './useRoles';
import { useUser } from './useUser';

const wrapperFor = (session: TestSession) =>
  function Wrapper({ children }: { children?: ReactNode }) {
    return <AuthProvider session={session}>{children}</AuthProvider>;
  };

afterEach(() => clearPageSession());

test('useAuth gives the snapshot and the session methods', async () => {
  const session = createTestSession({ user: { id: 'u1', username: 'carol', name: 'Carol Chen' }, realmRoles: ['user'] });
  const { result } = renderHook(() => useAuth(), { wrapper: wrapperFor(session) });

  expect(result.current.status).toBe('authenticated');
  expect(result.current.user).toEqual({ id: 'u1', username: 'carol', name: 'Carol Chen', email: null });
  expect(result.current.hasRealmRole('user')).toBe(true);
  await act(() => result.current.login({ redirectTo: '/reports' }));
  expect(session.calls.login).toEqual([{ redirectTo: '/reports' }]);
  await expect(result.current.getToken()).resolves.toBe('test-token');
});

test('hooks re-render on changes and keep the same value when nothing changed', () => {
  const session = createTestSession();
  const { result, rerender } = renderHook(() => useAuth(), { wrapper: wrapperFor(session) });
  const first = result.current;
  rerender();
  expect(result.current).toBe(first);

  act(() => session.signOut('session-ended'));

  expect(result.current.status).toBe('anonymous');
  expect(result.current.signOutReason).toBe('session-ended');
  expect(result.current.user).toBeNull();
});

test('useUser and useRoles read the user and the roles', () => {
  const session = createTestSession({ realmRoles: ['user', 'admin'], clientRoles: { reports: ['viewer'] } });
  const { result } = renderHook(() => ({ user: useUser(), roles: useRoles() }), { wrapper: wrapperFor(session) });
  expect(result.current.user?.name).toBe('Test User');
  expect(result.current.roles.realm).toEqual(['user', 'admin']);
  expect(result.current.roles.client).toEqual({ reports: ['viewer'] });
  expect(result.current.roles.hasClientRole('reports', 'viewer')).toBe(true);
  expect(result.current.roles.hasClientRole('reports', 'editor')).toBe(false);
  expect(result.current.roles.hasRealmRole('admin')).toBe(true);
});

test('without a provider, hooks read the page session', () => {
  const session = createTestSession();
  registerSession(session);
  const { result } = renderHook(() => useUser());
  expect(result.current?.id).toBe('test-user');
});

test('a remote rendered in a React root of its own sees the shell session and its changes', () => {
  const session = createTestSession();
  registerSession(session);
  function Shell() {
    const { user } = useAuth();
    return <p data-testid="shell">{user?.username ?? 'nobody'}</p>;
  }
  function Remote() {
    const user = useUser();
    return <p data-testid="remote">{user?.username ?? 'nobody'}</p>;
  }
  render(<Shell />);
  const container = document.createElement('div');
  document.body.appendChild(container);
  const remoteRoot = createRoot(container);
  act(() => remoteRoot.render(<Remote />));

  expect(screen.getByTestId('shell').textContent).toBe('test-user');
  expect(screen.getByTestId('remote').textContent).toBe('test-user');

  act(() => session.signOut('other-tab'));

  expect(screen.getByTestId('shell').textContent).toBe('nobody');
  expect(screen.getByTestId('remote').textContent).toBe('nobody');
  act(() => remoteRoot.unmount());
});

test('a hook used where no session exists fails with code no-session and says what to do', () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  expect(() => renderHook(() => useAuth())).toThrow(
    expect.objectContaining({
      code: 'no-session',
      message: 'useAuth() must be used inside <AuthProvider> or after the shell created the session with createSession().',
    }),
  );
  expect(() => renderHook(() => useRoles())).toThrow(/useRoles\(\) must be used inside <AuthProvider>/);
});
