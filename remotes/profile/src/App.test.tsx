import { AuthProvider, type Session } from '@gatehouse/auth-lib';
import { createTestSession } from '@gatehouse/auth-lib/testing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { ApiCard } from '@gatehouse/remote-kit/ApiCard';
import ProfileApp from './App';
import { formatRemaining } from './Countdown';

/** The remote as the shell mounts it, with `session`, once its first effects (the profile's load) have run. */
async function renderProfile(session: Session): Promise<void> {
  await act(async () => {
    render(
      <AuthProvider session={session}>
        <MemoryRouter>
          <ProfileApp />
        </MemoryRouter>
      </AuthProvider>,
    );
  });
}

describe('ProfileApp', () => {
  it('shows the user from the account endpoint, their roles and the token expiry', async () => {
    const session = createTestSession({
      user: { username: 'carol', name: 'Carol Chen', email: 'carol@example.com' },
      realmRoles: ['user'],
      clientRoles: { reports: ['viewer'] },
      profile: { id: 'c', username: 'carol', firstName: 'Carol', lastName: 'Chen', email: 'carol@example.com', emailVerified: true },
    });
    session.setState({ tokenExpiresAt: Date.now() + 300_000 });
    await renderProfile(session);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Profile');
    expect(screen.getByTestId('username').textContent).toBe('carol');
    expect(screen.getByTestId('full-name').textContent).toBe('Carol Chen');
    expect(screen.getByTestId('email').textContent).toContain('verified');
    expect(screen.getByTestId('realm-roles').textContent).toBe('user');
    expect(screen.getByTestId('client-roles').textContent).toBe('reports: viewer');
    expect(screen.getByTestId('token-countdown').textContent).toMatch(/^expires in [45] min/);
    expect(session.calls.loadProfile).toBe(1);
  });
});

describe("the visitor's roles", () => {
  it("lists the product's roles only, not the ones Keycloak gives every user or its built-in clients' roles", async () => {
    const session = createTestSession({
      user: { username: 'alice', name: 'Alice Anders' },
      realmRoles: ['offline_access', 'user', 'uma_authorization', 'default-roles-gatehouse', 'admin'],
      clientRoles: { account: ['manage-account', 'manage-account-links', 'view-profile'], reports: ['viewer'] },
    });
    await renderProfile(session);
    expect([...screen.getByTestId('realm-roles').children].map((badge) => badge.textContent)).toEqual(['user', 'admin']);
    expect([...screen.getByTestId('client-roles').children].map((badge) => badge.textContent)).toEqual(['reports: viewer']);
  });
});

describe('formatRemaining', () => {
  it('counts minutes and seconds down to expired', () => {
    expect(formatRemaining(65_000, 0)).toBe('in 1 min 05 s');
    expect(formatRemaining(9_000, 0)).toBe('in 9 s');
    expect(formatRemaining(0, 1_000)).toBe('expired');
  });
});

/** The card under its own query cache, as the remote's root gives it one. */
async function renderCard(session: Session, queryClient = new QueryClient()) {
  await act(async () => {
    render(
      <QueryClientProvider client={queryClient}>
        <AuthProvider session={session}>
          <ApiCard />
        </AuthProvider>
      </QueryClientProvider>,
    );
  });
  return queryClient;
}

const PROFILE_API = { url: 'http://localhost:3010/profile', audience: 'profile-api', scope: 'profile-api' };

describe('ApiCard', () => {
  it("calls the remote's own API with the token of its view of the session and shows the answer", async () => {
    const calls: { url: string; authorization: string | null }[] = [];
    const fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
      const answer = { api: 'profile', audience: 'profile-api', aud: ['profile-api'], user: 'carol', scope: 'profile-api' };
      return { ok: true, status: 200, json: async () => answer } as Response;
    }) as unknown as typeof globalThis.fetch;
    const session = createTestSession({ user: { username: 'carol', name: 'Carol Chen' }, token: 'page-token', fetch });
    await renderCard(session.forApi(PROFILE_API));
    expect(await screen.findByText('Signed in as carol')).toBeTruthy();
    expect(screen.getByTestId('api-audience').textContent).toBe('profile-api');
    expect(calls).toEqual([{ url: 'http://localhost:3010/profile', authorization: 'Bearer page-token:profile-api' }]);
  });

  it('shows a refusal with its status and reason, and does not call again (authFetch already retried the 401 once)', async () => {
    const fetch = jest.fn(
      async () => ({ ok: false, status: 401, text: async () => 'this token is for admin-api, not profile-api' }) as Response,
    ) as unknown as typeof globalThis.fetch;
    const session = createTestSession({ user: { username: 'carol' }, fetch });
    const queryClient = await renderCard(session.forApi(PROFILE_API));
    expect(await screen.findByText('Refused (HTTP 401: this token is for admin-api, not profile-api)')).toBeTruthy();
    expect(screen.getByTestId('api-audience').textContent).toBe('—');
    // one failed call of the query: TanStack Query's three retries would show "Calling…" for seconds more
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.state.fetchFailureCount),
    ).toEqual([1]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('says it is calling until the visitor is signed in, then calls', async () => {
    const fetch = jest.fn(
      async () => ({ ok: true, status: 200, json: async () => ({ user: 'carol', aud: ['profile-api'] }) }) as Response,
    ) as unknown as typeof globalThis.fetch;
    const session = createTestSession({ user: { username: 'carol' }, status: 'loading', fetch });
    await renderCard(session.forApi(PROFILE_API));
    expect(screen.getByTestId('api-answer').textContent).toBe('Calling…');
    expect(fetch).not.toHaveBeenCalled();
    act(() => session.signIn());
    expect(await screen.findByText('Signed in as carol')).toBeTruthy();
  });

  it('shows nothing for a session without an API', async () => {
    await renderCard(createTestSession());
    expect(screen.queryByText('Your API')).toBeNull();
  });
});
