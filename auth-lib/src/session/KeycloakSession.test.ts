import type { SessionEvent } from '../types';
import { ALICE, ALICE_ACCOUNT } from '../test-support/fakeKeycloak';
import { flush, sessionWithFake } from '../test-support/sessions';

describe('session state', () => {
  test('starts loading, then authenticated with the user, roles and times from the token', async () => {
    const { session } = sessionWithFake();
    expect(session.getSnapshot().status).toBe('loading');

    const snapshot = await session.ready();

    expect(snapshot.status).toBe('authenticated');
    expect(snapshot.user).toEqual({ id: 'id-alice', username: 'alice', name: 'Alice Anders', email: 'alice@example.com' });
    expect(snapshot.realmRoles).toEqual(['user', 'admin']);
    expect(snapshot.clientRoles).toEqual({ reports: ['viewer'] });
    expect(snapshot.sessionId).toBe('sid-1');
    expect(snapshot.tokenExpiresAt).toBeGreaterThan(Date.now());
    expect(snapshot.signedInAt).toBeLessThanOrEqual(Date.now());
    expect(snapshot.acr).toBe('1');
    expect(session.hasRealmRole('admin')).toBe(true);
    expect(session.hasRealmRole('owner')).toBe(false);
    expect(session.hasClientRole('reports', 'viewer')).toBe(true);
    expect(session.hasClientRole('billing', 'viewer')).toBe(false);
  });

  test('passes the platform settings to keycloak-js init', async () => {
    const { session, kc } = sessionWithFake();
    await session.ready();
    expect(kc().initCalls).toEqual([
      {
        onLoad: 'check-sso',
        redirectUri: 'http://localhost/',
        silentCheckSsoRedirectUri: 'http://localhost/silent-check-sso.html',
        pkceMethod: 'S256',
        checkLoginIframe: true,
        checkLoginIframeInterval: 5,
        messageReceiveTimeout: 10000,
        responseMode: 'fragment',
        enableLogging: false,
      },
    ]);
  });

  test('is anonymous when check-sso finds no session', async () => {
    const { session } = sessionWithFake((kc) => (kc.initOutcome = 'anonymous'));
    expect((await session.ready()).status).toBe('anonymous');
    await expect(session.getToken()).rejects.toMatchObject({ code: 'not-authenticated' });
  });

  test("a refused sign-in callback is an error with code login-failed that keeps the provider's error fields", async () => {
    const { session } = sessionWithFake(
      (kc) => (kc.initOutcome = { fails: { error: 'invalid_grant', error_description: 'Code not valid' } }),
    );
    const snapshot = await session.ready();
    expect(snapshot.status).toBe('error');
    expect(snapshot.error).toMatchObject({ code: 'login-failed', error: 'invalid_grant', error_description: 'Code not valid' });
    expect(snapshot.error?.message).toMatch(/invalid_grant: Code not valid/);
  });

  test("the login-status frame's error at init is a refused origin, with the origin and client to fix, not 'unreachable'", async () => {
    // keycloak-js's words when its frame answers "error": Keycloak's frame does so when /init answers 403
    const { session } = sessionWithFake((kc) => (kc.initOutcome = { fails: new Error('Error while checking login iframe') }));
    const snapshot = await session.ready();
    expect(snapshot.status).toBe('error');
    expect(snapshot.error?.code).toBe('origin-not-allowed');
    expect(snapshot.error?.message).toContain(
      'does not accept this origin: add http://localhost to the web origins of client "gatehouse-shell" (realm "gatehouse")',
    );
  });

  test('any other init failure still says the provider could not be reached', async () => {
    const { session } = sessionWithFake((kc) => (kc.initOutcome = { fails: new Error('Failed to fetch') }));
    const snapshot = await session.ready();
    expect(snapshot.error).toMatchObject({
      code: 'idp-unreachable',
      message: expect.stringMatching(/^Could not reach the identity provider/),
    });
  });

  test('getSnapshot returns the same object until something changes', async () => {
    const { session } = sessionWithFake();
    await session.ready();
    const first = session.getSnapshot();
    expect(session.getSnapshot()).toBe(first);
    await session.getToken();
    expect(session.getSnapshot()).toBe(first);
  });

  test('subscribers hear each change; unsubscribe stops them', async () => {
    const { session } = sessionWithFake();
    const listener = jest.fn();
    const unsubscribe = session.subscribe(listener);
    await session.ready();
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    await session.getToken({ forceRefresh: true });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  test('emits signedIn, tokenRefreshed and signedOut events', async () => {
    const events: SessionEvent[] = [];
    const { session, kc } = sessionWithFake();
    session.on((event) => events.push(event));
    await session.ready();
    await session.getToken({ forceRefresh: true });
    kc().frameReportsChanged();
    await flush();

    expect(events.map((e) => e.type)).toEqual(['signedIn', 'tokenRefreshed', 'signedOut']);
    expect(events[0]).toMatchObject({ user: { username: 'alice' } });
    expect(events[2]).toEqual({ type: 'signedOut', reason: 'session-ended' });
  });

  test('a session ended at the provider (login-status frame says changed) turns anonymous with reason session-ended', async () => {
    const { session, kc } = sessionWithFake();
    await session.ready();

    kc().frameReportsChanged();
    await flush();

    expect(session.getSnapshot()).toMatchObject({ status: 'anonymous', user: null, signOutReason: 'session-ended', realmRoles: [] });
    await expect(session.getToken()).rejects.toMatchObject({ code: 'not-authenticated' });
  });

  test('a login-status check the provider refuses turns anonymous with reason session-check-refused and says what to fix', async () => {
    const page = new EventTarget();
    const error = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { session, kc } = sessionWithFake(undefined, { window: page as unknown as Window });
    await session.ready();

    page.dispatchEvent(new MessageEvent('message', { origin: 'http://localhost:8080', data: 'error' }));
    kc().frameReportsChanged();
    await flush();

    expect(session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-check-refused' });
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/Add http:\/\/localhost to the client's Web origins/));
    error.mockRestore();
  });

  test("an 'error' from another origin than the provider's does not change the reason", async () => {
    const page = new EventTarget();
    const { session, kc } = sessionWithFake(undefined, { window: page as unknown as Window });
    await session.ready();

    page.dispatchEvent(new MessageEvent('message', { origin: 'http://evil.example', data: 'error' }));
    kc().frameReportsChanged();
    await flush();

    expect(session.getSnapshot().signOutReason).toBe('session-ended');
  });
});

describe('login and logout', () => {
  test('login returns the visitor to the route they asked for', async () => {
    const { session, kc } = sessionWithFake((k) => (k.initOutcome = 'anonymous'));
    await session.login({ redirectTo: '/reports?year=2024#top' });
    expect(kc().loginCalls).toEqual([{ redirectUri: 'http://localhost/reports?year=2024#top' }]);
  });

  test('login without redirectTo returns to the current path', async () => {
    window.history.pushState({}, '', '/profile?tab=1');
    const { session, kc } = sessionWithFake((k) => (k.initOutcome = 'anonymous'));
    await session.login();
    expect(kc().loginCalls).toEqual([{ redirectUri: 'http://localhost/profile?tab=1' }]);
    window.history.pushState({}, '', '/');
  });

  test('no callback parameter of an earlier round trip reaches the redirect_uri, whichever way the address was read', async () => {
    // a full-page check-sso came back with #error=login_required&state=…; the router still holds it
    window.history.pushState({}, '', '/profile?code=c1&tab=1#error=login_required&state=s0&iss=http%3A%2F%2Fidp');
    const { session, kc } = sessionWithFake((k) => (k.initOutcome = 'anonymous'));
    await session.ready();
    await session.login();
    await session.login({ redirectTo: '/profile#session_state=x&error_description=Login+required&section' });
    await session.login({ redirectTo: '/admin?state=s0', acr: 'gold' });
    expect(kc().initCalls[0]?.redirectUri).toBe('http://localhost/profile?tab=1');
    expect((kc().loginCalls as { redirectUri?: string }[]).map((call) => call.redirectUri)).toEqual([
      'http://localhost/profile?tab=1',
      'http://localhost/profile#section',
      'http://localhost/admin',
    ]);
    window.history.pushState({}, '', '/');
  });

  test('login passes locale, loginHint, idpHint, prompt and an essential acr through to keycloak-js', async () => {
    const { session, kc } = sessionWithFake((k) => (k.initOutcome = 'anonymous'));
    await session.login({ redirectTo: '/admin', locale: 'de', loginHint: 'alice', idpHint: 'corp', acr: 'gold', prompt: 'login' });
    expect(kc().loginCalls).toEqual([
      {
        redirectUri: 'http://localhost/admin',
        locale: 'de',
        loginHint: 'alice',
        idpHint: 'corp',
        acr: { values: ['gold'], essential: true },
        prompt: 'login',
      },
    ]);
  });

  test('login refuses a malformed option with invalid-argument naming it, and does not navigate', async () => {
    const { session, kc } = sessionWithFake((k) => (k.initOutcome = 'anonymous'));
    await expect(session.login({ acr: 'gold silver' })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('acr'),
    });
    await expect(session.login({ acr: '' })).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringContaining('acr') });
    await expect(session.login({ locale: 42 } as never)).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('locale'),
    });
    await expect(session.login({ prompt: 'select_account' } as never)).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('"none", "login", "consent"'),
    });
    expect(kc().loginCalls).toEqual([]);
  });

  test('the snapshot carries the acr the provider vouches for', async () => {
    const { session } = sessionWithFake((k) => (k.acr = 'gold'));
    expect((await session.ready()).acr).toBe('gold');
  });

  test('login refuses a redirect to another site', async () => {
    const { session } = sessionWithFake((k) => (k.initOutcome = 'anonymous'));
    await expect(session.login({ redirectTo: 'https://evil.example/' })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(session.login({ redirectTo: '//evil.example/' })).rejects.toMatchObject({ code: 'invalid-argument' });
  });

  test('logout ends the session with reason user and signs out at the provider', async () => {
    const { session, kc } = sessionWithFake();
    await session.ready();
    const events: SessionEvent[] = [];
    session.on((e) => events.push(e));

    await session.logout({ redirectTo: '/bye' });

    expect(session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'user' });
    expect(events).toEqual([{ type: 'signedOut', reason: 'user' }]);
    expect(kc().logoutCalls).toEqual([{ redirectUri: 'http://localhost/bye' }]);
  });
});

describe('loadProfile', () => {
  test('reads the account endpoint alone: no user-info request (the tokens carry its claims)', async () => {
    const { session, kc } = sessionWithFake();
    await session.ready();
    expect(await session.loadProfile()).toEqual(ALICE_ACCOUNT);
    expect(kc().userInfoCalls).toBe(0);
  });

  test('what the account endpoint leaves out comes from the ID token, then the access token', async () => {
    const { session, kc } = sessionWithFake();
    await session.ready();
    kc().account = { username: 'alice' };
    kc().idTokenParsed = { sub: 'id-alice', given_name: 'Alice', family_name: 'Anders', email_verified: true };
    expect(await session.loadProfile()).toEqual({
      id: 'id-alice',
      username: 'alice',
      firstName: 'Alice',
      lastName: 'Anders',
      email: 'alice@example.com', // the access token's
      emailVerified: true,
    });
    expect(kc().userInfoCalls).toBe(0);
  });

  test('an account endpoint that refuses is reported with what to check', async () => {
    const { session, kc } = sessionWithFake();
    await session.ready();
    kc().loadUserProfile = () => Promise.reject(new Error('Server responded with an invalid status.'));
    await expect(session.loadProfile()).rejects.toMatchObject({
      code: 'idp-unreachable',
      message: expect.stringMatching(/default-roles-gatehouse/),
    });
  });

  test('needs a signed-in visitor', async () => {
    const { session } = sessionWithFake((k) => (k.initOutcome = 'anonymous'));
    await session.ready();
    await expect(session.loadProfile()).rejects.toMatchObject({ code: 'not-authenticated' });
  });
});

test('the user falls back to the username when the token has no name', async () => {
  const { session } = sessionWithFake((kc) => (kc.initOutcome = { signedInAs: { ...ALICE, name: undefined, email: undefined } }));
  expect((await session.ready()).user).toEqual({ id: 'id-alice', username: 'alice', name: 'alice', email: null });
});
