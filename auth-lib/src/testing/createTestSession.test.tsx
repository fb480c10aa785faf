import { act, render, screen } from '@testing-library/react';
import { AuthProvider, authFetch, getSession, useAuth } from '../index';
import { createTestSession, setPageSession } from './index';

afterEach(() => setPageSession(null));

function SignOutButton() {
  const { user, logout } = useAuth();
  return user ? <button onClick={() => void logout()}>Sign out {user.name}</button> : <p>Signed out</p>;
}

test('renders a component signed in, records logout, and signs out', async () => {
  const session = createTestSession({ user: { name: 'Bob Brown' } });
  render(
    <AuthProvider session={session}>
      <SignOutButton />
    </AuthProvider>,
  );
  await act(async () => screen.getByRole('button', { name: 'Sign out Bob Brown' }).click());
  expect(session.calls.logout).toEqual([{}]);
  expect(screen.getByText('Signed out')).toBeTruthy();
});

test('signed out, loading, and roles', async () => {
  const anonymous = createTestSession({ user: null });
  expect(anonymous.getSnapshot().status).toBe('anonymous');
  await expect(anonymous.getToken()).rejects.toMatchObject({ code: 'not-authenticated' });
  expect(createTestSession({ status: 'loading' }).getSnapshot().status).toBe('loading');
  const withRoles = createTestSession({ realmRoles: ['admin'], clientRoles: { reports: ['viewer'] } });
  expect(withRoles.hasRealmRole('admin')).toBe(true);
  expect(withRoles.hasClientRole('reports', 'viewer')).toBe(true);
});

test('emits events from its helpers', () => {
  const session = createTestSession({ user: null });
  const events: string[] = [];
  session.on((e) => events.push(e.type));
  session.signIn({ user: { username: 'alice' }, realmRoles: ['user'] });
  session.refreshToken('t2');
  session.signOut('refresh-refused');
  expect(events).toEqual(['signedIn', 'tokenRefreshed', 'signedOut']);
  expect(session.getSnapshot().signOutReason).toBe('refresh-refused');
});

test('setPageSession makes it the page session for getSession() and the standalone authFetch', async () => {
  const fetch = jest.fn(async () => ({ status: 204 }) as Response);
  const session = createTestSession({ token: 'tok', fetch: fetch as unknown as typeof globalThis.fetch });
  setPageSession(session);
  expect(getSession()).toBe(session);
  const response = await authFetch('/api/ping');
  expect(response.status).toBe(204);
  const init = (fetch.mock.calls[0] as unknown[] | undefined)?.[1] as RequestInit;
  expect(new Headers(init.headers).get('authorization')).toBe('Bearer tok');
});

test('loadProfile derives a profile from the user unless one is given', async () => {
  expect(
    await createTestSession({ user: { id: 'c', username: 'carol', name: 'Carol Chen', email: 'carol@example.com' } }).loadProfile(),
  ).toEqual({
    id: 'c',
    username: 'carol',
    firstName: 'Carol',
    lastName: 'Chen',
    email: 'carol@example.com',
    emailVerified: true,
  });
});

test('the level of authentication and login options: recorded as given, malformed ones refused as by the real session', async () => {
  const session = createTestSession({ acr: 'silver' });
  expect(session.getSnapshot().acr).toBe('silver');
  expect(createTestSession().getSnapshot().acr).toBe('1');
  await session.login({ redirectTo: '/admin', acr: 'gold', loginHint: 'alice' });
  await expect(session.login({ acr: 'gold silver' })).rejects.toMatchObject({ code: 'invalid-argument' });
  expect(session.calls.login).toEqual([{ redirectTo: '/admin', acr: 'gold', loginHint: 'alice' }]);
  act(() => session.signIn({ acr: 'gold' }));
  expect(session.getSnapshot().acr).toBe('gold');
});
