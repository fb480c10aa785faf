import { expect, signIn, test } from './fixtures.js';

interface KeycloakOnPage {
  kc: {
    token?: string;
    refreshToken?: string;
    sessionId?: string;
    authenticated?: boolean;
    tokenParsed?: Record<string, unknown>;
    updateToken(minValidity: number): Promise<boolean>;
    loadUserInfo(): Promise<Record<string, unknown>>;
    loadUserProfile(): Promise<Record<string, unknown>>;
    logout(options?: Record<string, unknown>): Promise<void>;
  };
  events: string[];
}

test('signs in through the form, refreshes, loads user info and profile', async ({ page, app }) => {
  await signIn(page, app.url);
  const result = await page.evaluate(async () => {
    const { kc } = window as unknown as KeycloakOnPage;
    const before = kc.token;
    const refreshed = await kc.updateToken(-1);
    return {
      refreshed,
      changed: before !== kc.token,
      sid: kc.sessionId,
      roles: (kc.tokenParsed?.realm_access as { roles: string[] }).roles,
      userinfo: await kc.loadUserInfo(),
      profile: await kc.loadUserProfile(),
    };
  });
  expect(result.refreshed).toBe(true);
  expect(result.changed).toBe(true);
  expect(result.sid).toBeTruthy();
  expect(result.roles).toContain('offline_access');
  expect(result.userinfo.preferred_username).toBe('alice');
  expect(result.userinfo.email).toBe('alice@example.com');
  expect(result.profile).toMatchObject({ username: 'alice', firstName: 'Alice', lastName: 'Anders', email: 'alice@example.com' });
});

test('keeps the session through the 5 s status checks and restores it on reload', async ({ page, app }) => {
  const checks: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/login-status-iframe.html/status')) checks.push(request.url());
  });
  await signIn(page, app.url);
  await page.waitForTimeout(12_000);
  expect(checks.length).toBeGreaterThanOrEqual(2);
  const state = await page.evaluate(() => {
    const { kc, events } = window as unknown as KeycloakOnPage;
    return { authenticated: kc.authenticated, events };
  });
  expect(state.authenticated).toBe(true);
  expect(state.events).not.toContain('onAuthLogout');

  await page.reload();
  await expect(page.locator('#state')).toHaveText('signed in as alice');
  expect(page.url()).toBe(`${app.url}/`);
});

test("keeps the session while the provider does not answer the status checks (as Keycloak's cookie check does)", async ({ page, app }) => {
  await signIn(page, app.url);
  let unanswered = 0;
  await page.context().route('**/login-status-iframe.html/status*', async (route) => {
    unanswered += 1;
    await route.abort('connectionrefused');
  });
  await expect.poll(() => unanswered, { timeout: 12_000 }).toBeGreaterThanOrEqual(2);
  const state = await page.evaluate(() => {
    const { kc, events } = window as unknown as KeycloakOnPage;
    return { authenticated: kc.authenticated, hasToken: Boolean(kc.token), events };
  });
  expect(state).toEqual({ authenticated: true, hasToken: true, events: expect.not.arrayContaining(['onAuthLogout']) });
});

test("keeps the session when the provider is unreachable at the frame's first check (Keycloak's frame posts no answer when /init fails)", async ({
  page,
  app,
}) => {
  await signIn(page, app.url);
  // After a sign-in redirect keycloak-js first asks the frame 5 s later: that first message is what
  // makes the frame call /init. The provider is gone by then.
  let initAttempts = 0;
  await page.context().route(/\/login-status-iframe\.html\/(init|status)/, async (route) => {
    if (route.request().url().includes('/init')) initAttempts += 1;
    await route.abort('connectionrefused');
  });
  await expect.poll(() => initAttempts, { timeout: 8_000 }).toBe(1);
  await page.waitForTimeout(1_000);
  const state = await page.evaluate(() => {
    const { kc, events } = window as unknown as KeycloakOnPage;
    return { authenticated: kc.authenticated, hasToken: Boolean(kc.token), events };
  });
  expect(state).toEqual({ authenticated: true, hasToken: true, events: expect.not.arrayContaining(['onAuthLogout']) });
  expect(initAttempts).toBe(1);
});

test("signs the page out when /init refuses the client or origin (403 → error), as Keycloak's frame does", async ({ page, app }) => {
  await signIn(page, app.url);
  await page.context().route('**/login-status-iframe.html/init*', (route) => route.fulfill({ status: 403, body: '' }));
  await expect
    .poll(() => page.evaluate(() => (window as unknown as KeycloakOnPage).events.includes('onAuthLogout')), { timeout: 8_000 })
    .toBe(true);
});

test('notices a logout done in another tab within 10 s', async ({ page, context, app }) => {
  await signIn(page, app.url);
  const other = await context.newPage();
  await other.goto(app.url);
  await expect(other.locator('#state')).toHaveText('signed in as alice');
  await other.evaluate(() => {
    void (window as unknown as KeycloakOnPage).kc.logout({ redirectUri: location.origin + '/' });
  });
  await expect(other.locator('#state')).toHaveText('signed out');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as KeycloakOnPage).events.includes('onAuthLogout')), { timeout: 10_000 })
    .toBe(true);
  expect(await page.evaluate(() => (window as unknown as KeycloakOnPage).kc.authenticated)).toBe(false);
});

test('notices an admin logout (admin API) at the next status check', async ({ page, app, admin, realm }) => {
  await signIn(page, app.url);
  admin.setConfig({ realmName: realm });
  const [alice] = await admin.users.find({ username: 'alice', exact: true });
  await admin.users.logout({ id: alice?.id ?? '' });
  admin.setConfig({ realmName: 'master' });
  await expect
    .poll(() => page.evaluate(() => (window as unknown as KeycloakOnPage).events.includes('onAuthLogout')), { timeout: 7_000 })
    .toBe(true);
  const refresh = await page.evaluate(async () => {
    try {
      return await (window as unknown as KeycloakOnPage).kc.updateToken(-1);
    } catch {
      return 'refused';
    }
  });
  expect(refresh).toBe('refused');
});
