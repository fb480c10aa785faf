// As decisions/0109 says: a remote's code gets its own view of the session and nothing wider. The
// page registry, which every script and every copy of auth-lib reads, holds the page view; only createSession's
// caller (the shell) holds the root session, whose forApi mints a token for any API.
import { act, render, screen } from '@testing-library/react';
import { AuthError } from '../../errors';
import { authFetch } from '../../pageAuthFetch';
import { useAuth } from '../../react/useAuth';
import { useToken } from '../../react/useToken';
import { fakeKeycloakFactory } from '../../test-support/fakeKeycloak';
import { CONFIG } from '../../test-support/sessions';
import { createTestSession } from '../../testing/createTestSession';
import type { ApiBinding } from '../../types';
import { createSession, getSession, whenSession } from '../createSession';
import { clearPageSession, registerSession } from '../registry';
import { remoteView } from './remoteView';

afterEach(() => clearPageSession());

const PROFILE: ApiBinding = { url: 'https://api.example.com/profile', audience: 'profile-api', scope: 'profile-api' };
const ADMIN: ApiBinding = { url: 'https://api.example.com/admin', audience: 'admin-api', scope: 'admin-api' };

function refused(call: () => unknown): AuthError {
  try {
    call();
  } catch (error) {
    if (error instanceof AuthError) return error;
    throw error;
  }
  throw new Error('forApi was not refused');
}

describe('remoteView', () => {
  it("a remote that names an API gets that API's token alone; forApi of another API is refused, saying to name it in the registry", async () => {
    const root = createTestSession({ token: 'page' });
    const view = remoteView(root, PROFILE);
    expect(view.api).toEqual(PROFILE);
    expect(await view.getToken()).toBe('page:profile-api');

    const error = refused(() => view.forApi(ADMIN));
    expect(error.code).toBe('invalid-argument');
    expect(error.message).toContain('"admin-api"');
    expect(error.message).toContain('its own API (audience "profile-api"');
    expect(error.message).toMatch(/registry entry \(config\.json, remotes\[\]\.api/);
    // its own binding is the view itself, never the root's view of it
    expect(view.forApi({ ...PROFILE })).toBe(view);
    expect(remoteView(root, { ...PROFILE })).toBe(view);
  });

  it('a remote that names no API gets the page session, whose forApi refuses every API', async () => {
    const root = createTestSession({ token: 'page' });
    const view = remoteView(root, null);
    expect(view).not.toBe(root);
    expect(view.api).toBeNull();
    expect(await view.getToken()).toBe('page');
    for (const api of [PROFILE, ADMIN]) {
      expect(refused(() => view.forApi(api)).message).toContain('the page session without any API audience');
    }
  });

  it("the root's other operations read through: snapshot, subscribe, roles, login, logout, profile, extend, the expiry warning", async () => {
    const root = createTestSession({ realmRoles: ['admin'], clientRoles: { reports: ['viewer'] } });
    const view = remoteView(root, PROFILE);
    expect(view.getSnapshot()).toBe(root.getSnapshot());
    expect(view.config).toBe(root.config);
    expect(view.hasRealmRole('admin')).toBe(true);
    expect(view.hasClientRole('reports', 'viewer')).toBe(true);
    const heard = jest.fn();
    view.subscribe(heard);
    await view.login({ redirectTo: '/profile' });
    expect(root.calls.login).toEqual([{ redirectTo: '/profile' }]);
    expect((await view.loadProfile()).username).toBe(root.getSnapshot().user?.username);
    await view.extend();
    expect(root.calls.extend).toBe(1);
    expect(typeof view.onBeforeSessionEnd(() => undefined)).toBe('function');
    await view.logout();
    expect(root.calls.logout).toHaveLength(1);
    expect(heard).toHaveBeenCalled();
  });

  it('is frozen: nothing on it leads back to the root session', () => {
    const root = createTestSession();
    const view = remoteView(root, PROFILE);
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.values(Object.getOwnPropertyDescriptors(view)).some((d) => d.value === root)).toBe(false);
  });
});

describe("the page registry holds the page view, never the root createSession's caller gets", () => {
  it('getSession, whenSession and authFetch give the page view; createSession again gives its caller the root', async () => {
    const { factory } = fakeKeycloakFactory();
    const root = createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
    const page = getSession();
    expect(page).not.toBe(root);
    expect(page).toBe(remoteView(root, null));
    expect(await whenSession()).toBe(page);
    expect(page.api).toBeNull();
    expect(refused(() => page.forApi(PROFILE)).code).toBe('invalid-argument');
    expect(createSession(CONFIG, { keycloakFactory: factory, tabChannel: null })).toBe(root);
    await root.ready();
  });

  it("authFetch sends the page view's token: the page session's, never an API's", async () => {
    const fetch = jest.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => ({ status: 200 }) as Response);
    const root = createTestSession({ token: 'page', fetch: fetch as unknown as typeof globalThis.fetch });
    registerSession(remoteView(root, null));
    await authFetch('/reports');
    const headers = new Headers(fetch.mock.calls[0]?.[1]?.headers);
    expect(headers.get('authorization')).toBe('Bearer page');
  });

  it('a whenSession made before the shell created the session resolves with the page view', async () => {
    const waiting = whenSession();
    const { factory } = fakeKeycloakFactory();
    const root = createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
    expect(await waiting).toBe(remoteView(root, null));
  });

  it('hooks without an <AuthProvider> read the page view; its forApi refuses', async () => {
    const { factory } = fakeKeycloakFactory();
    const root = createSession(CONFIG, { keycloakFactory: factory, tabChannel: null });
    let seen: unknown = null;
    function Probe() {
      const { session } = useAuth();
      useToken();
      seen = session;
      return <p>{session.api === null ? 'page' : session.api.audience}</p>;
    }
    await act(async () => {
      render(<Probe />);
    });
    expect(screen.getByText('page')).toBeTruthy();
    expect(seen).toBe(remoteView(root, null));
    expect(seen).not.toBe(root);
  });
});
