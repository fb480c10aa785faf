import { AuthError } from '@gatehouse/auth-lib';
import { createTestSession, type TestSession } from '@gatehouse/auth-lib/testing';
import { act, screen } from '@testing-library/react';
import { RENEWAL_RETRY_MS } from './useTokenRenewal';
import { reportsRemote } from '../test-support/remotes';
import { renderRemoteRoute, slotRegistry } from '../test-support/remoteRoute';

const reports = reportsRemote();

function renderRoute(session: TestSession, path = '/reports/2026?x=1', remote = reports) {
  // the slot's side of the registry: a navigation into the remote opens it
  const registry = slotRegistry({
    open: jest.fn(async () => ({ default: () => <h1>Reports</h1> })),
    retryWhenDue: jest.fn(),
    cancelRetry: jest.fn(),
  });
  renderRemoteRoute(session, remote, registry, path);
  return registry;
}

describe('RemoteRoute', () => {
  it('waits for the session without loading the remote', () => {
    const registry = renderRoute(createTestSession({ status: 'loading' }));
    expect(screen.getByRole('status').textContent).toBe('Checking your sign-in…');
    expect(registry.open).not.toHaveBeenCalled();
  });

  it('sends a signed-out visitor to sign in, back to the exact route', () => {
    const session = createTestSession({ user: null });
    const registry = renderRoute(session);
    expect(session.calls.login).toEqual([{ redirectTo: '/reports/2026?x=1' }]);
    expect(registry.open).not.toHaveBeenCalled();
  });

  it('denies a signed-in visitor without the role, naming it, and never loads the remote', () => {
    const registry = renderRoute(createTestSession({ user: { username: 'bob', name: 'Bob Brown' }, realmRoles: ['user'] }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Access denied');
    expect(screen.getByText(/client role "viewer" of client "reports"/).textContent).toContain('(bob)');
    expect(registry.open).not.toHaveBeenCalled();
  });

  it('loads and renders the remote for a visitor with the role', async () => {
    let registry: ReturnType<typeof renderRoute> | undefined;
    await act(async () => {
      registry = renderRoute(createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] } }));
    });
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeTruthy();
    expect(registry?.open).toHaveBeenCalledWith(reports, expect.any(String));
  });

  it("asks a visitor with a weaker sign-in to step up and never loads the remote; the step-up returns to the page's address", () => {
    const session = createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] }, acr: 'silver' });
    const registry = renderRoute(session, '/reports/2026?x=1', { ...reports, acr: 'gold' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Confirm it is you');
    expect(document.body.textContent).toContain('level “gold”');
    expect(document.body.textContent).toContain('level “silver”');
    expect(session.calls.login).toEqual([]);
    act(() => screen.getByRole('button', { name: 'Continue' }).click());
    // no redirectTo: the session returns to the browser's current address (the router's may still hold a login callback)
    expect(session.calls.login).toEqual([{ acr: 'gold' }]);
    expect(registry.open).not.toHaveBeenCalled();
  });

  it('denies a visitor without the role before asking for a step-up', () => {
    const registry = renderRoute(createTestSession({ user: { username: 'bob' }, acr: 'silver' }), '/reports', { ...reports, acr: 'gold' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Access denied');
    expect(registry.open).not.toHaveBeenCalled();
  });

  it('loads the remote for a session at the level it needs', async () => {
    let registry: ReturnType<typeof renderRoute> | undefined;
    await act(async () => {
      registry = renderRoute(
        createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] }, acr: 'gold' }),
        '/reports',
        { ...reports, acr: 'gold' },
      );
    });
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeTruthy();
    expect(registry?.open).toHaveBeenCalledWith({ ...reports, acr: 'gold' }, expect.any(String));
  });

  it('does not bounce a visitor whose session just ended to the provider, but offers to sign in', () => {
    const session = createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] } });
    renderRoute(session);
    act(() => session.signOut('session-ended'));
    expect(session.calls.login).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('offers a retry when the identity provider is unreachable', () => {
    renderRoute(createTestSession({ status: 'error' }));
    expect(screen.getByRole('heading', { name: 'Sign-in unavailable' })).toBeTruthy();
  });

  it('says in plain words that sign-in is not set up for this address when the provider refuses the origin', () => {
    const session = createTestSession({ status: 'error' });
    const developerText = 'The identity provider at http://localhost:8080 does not accept this origin: add http://localhost to …';
    act(() => session.setState({ error: new AuthError('origin-not-allowed', developerText) }));
    renderRoute(session);
    expect(screen.getByText(/^Sign-in is not set up for this site's address yet/)).toBeTruthy();
    expect(screen.queryByText(/not answering right now/)).toBeNull();
    expect(screen.getByTestId('details-code').textContent).toBe('origin-not-allowed');
    expect(screen.getByText(developerText)).toBeTruthy();
  });

  it('says the sign-in service is down when the token expired and cannot be renewed, and opens the page by itself once it is back', async () => {
    jest.useFakeTimers();
    try {
      const session = createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] } });
      session.setState({ tokenExpiresAt: Date.now() - 1000 });
      const down = new AuthError('idp-unreachable', 'The identity provider did not answer.');
      const getToken = jest.spyOn(session, 'getToken').mockRejectedValue(down);
      let registry: ReturnType<typeof renderRoute> | undefined;
      await act(async () => {
        registry = renderRoute(session);
      });
      expect(screen.getByRole('alert').querySelector('h1')?.textContent).toBe('Waiting for the sign-in service');
      expect(screen.getByRole('alert').textContent).toContain('Reports opens by itself as soon as the service is back');
      expect(getToken).toHaveBeenCalledTimes(1);

      // Still down at the first retries (after 2 s, then 4 s): the notice stays, no sign-in is started.
      await act(async () => {
        await jest.advanceTimersByTimeAsync(RENEWAL_RETRY_MS[0]!);
      });
      expect(getToken).toHaveBeenCalledTimes(2);
      await act(async () => {
        await jest.advanceTimersByTimeAsync(RENEWAL_RETRY_MS[1]! - 1);
      });
      expect(getToken).toHaveBeenCalledTimes(2);
      await act(async () => {
        await jest.advanceTimersByTimeAsync(1);
      });
      expect(getToken).toHaveBeenCalledTimes(3);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Waiting for the sign-in service');
      expect(registry?.open).not.toHaveBeenCalled();
      expect(session.calls.login).toEqual([]);

      // The provider is back: the next retry renews the token, and the remote opens on the same session.
      getToken.mockImplementation(async () => {
        session.setState({ tokenExpiresAt: Date.now() + 60_000 });
        return 'token';
      });
      await act(async () => {
        await jest.advanceTimersByTimeAsync(RENEWAL_RETRY_MS[2]!);
      });
      expect(getToken).toHaveBeenCalledTimes(4);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Reports');
      expect(session.calls.login).toEqual([]);
      // renewed: no more retries
      await act(async () => {
        await jest.advanceTimersByTimeAsync(60_000);
      });
      expect(getToken).toHaveBeenCalledTimes(4);
    } finally {
      jest.useRealTimers();
    }
  });

  it('offers to sign in again, back to the route, while it waits for the sign-in service', async () => {
    const session = createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] } });
    session.setState({ tokenExpiresAt: Date.now() - 1000 });
    jest.spyOn(session, 'getToken').mockRejectedValue(new AuthError('idp-unreachable', 'The identity provider did not answer.'));
    await act(async () => {
      renderRoute(session);
    });
    act(() => screen.getByRole('button', { name: 'Sign in again' }).click());
    expect(session.calls.login).toEqual([{ redirectTo: '/reports/2026?x=1' }]);
  });

  it('renders the remote when an expired token is renewed on navigation', async () => {
    const session = createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] } });
    session.setState({ tokenExpiresAt: Date.now() - 1000 });
    const getToken = jest.spyOn(session, 'getToken').mockImplementation(async () => {
      session.setState({ tokenExpiresAt: Date.now() + 60_000 });
      return 'token';
    });
    await act(async () => {
      renderRoute(session);
    });
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeTruthy();
  });

  it('renders the remote on a token with more than minValidity left, without asking for a new one', async () => {
    const session = createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] } });
    session.setState({ tokenExpiresAt: Date.now() + (session.config.minValidity + 2) * 1000 });
    const getToken = jest.spyOn(session, 'getToken');
    await act(async () => {
      renderRoute(session);
    });
    expect(getToken).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeTruthy();
  });

  it('waits for the sign-in service when the token is still valid but under minValidity and the provider does not renew it (getToken() keeps the old one)', async () => {
    const session = createTestSession({ user: { username: 'carol' }, clientRoles: { reports: ['viewer'] } });
    // a second left: the remote's own first getToken() a moment later would find it gone
    session.setState({ tokenExpiresAt: Date.now() + 1000 });
    const getToken = jest.spyOn(session, 'getToken').mockResolvedValue('the-token-it-had');
    let registry: ReturnType<typeof renderRoute> | undefined;
    await act(async () => {
      registry = renderRoute(session);
    });
    expect(getToken).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').querySelector('h1')?.textContent).toBe('Waiting for the sign-in service');
    expect(registry?.open).not.toHaveBeenCalled();
    expect(session.calls.login).toEqual([]);
  });
});
