import { expect, signIn, test } from './support/fixtures';
import { answerThirdPartyCookiesUnsupported } from './support/thirdPartyCookies';

test('signs in through the provider and lands on the route it asked for', async ({ page, app, idp, realm }) => {
  expect(idp.url).toMatch(/^http:\/\/localhost:\d+$/);
  expect(realm).toBeTruthy();
  await signIn(page, app);

  const snapshot = await page.evaluate(() => window.gatehouse!.snapshot());
  expect(snapshot.user).toMatchObject({ username: 'alice', name: 'Alice Anders', email: 'alice@example.com' });
  expect(snapshot.realmRoles).toEqual(expect.arrayContaining(['user', 'admin']));
  expect(snapshot.clientRoles.reports).toEqual(['viewer']);
  // tokens stay in memory: nothing in the URL or web storage
  expect(page.url()).toBe(`${app.origin}/signed-in`);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
  expect(stored).not.toMatch(/eyJ/);
});

test('authFetch sends the token to its own origin', async ({ signedInPage: page }) => {
  const echoed = await page.evaluate(
    async () => (await (await window.gatehouse!.session.authFetch('/api/echo')).json()) as { authorization: string },
  );
  expect(echoed.authorization).toMatch(/^Bearer eyJ/);
});

test('loadProfile reads the account endpoint alone; the ID token fills in what user-info would say', async ({
  signedInPage: page,
  idp,
  realm,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    // the login-status frame's own checks (dev-idp's frame asks its server) run on their own timer
    if (request.url().startsWith(idp.url) && !pathname.includes('/login-status-iframe.html')) asked.push(`${request.method()} ${pathname}`);
  });
  const profile = await page.evaluate(() => window.gatehouse!.session.loadProfile());
  // one read, not user-info and account with their two preflights (decisions/0096)
  expect(asked).toEqual([`GET /realms/${realm}/account`]);
  expect(profile).toMatchObject({
    username: 'alice',
    firstName: 'Alice',
    lastName: 'Anders',
    email: 'alice@example.com',
    emailVerified: true,
  });
});

test("a page on the provider's host opens signed in without the third-party-cookie check, its login-status frame on", async ({
  page,
  app,
  idp,
  realm,
}) => {
  await signIn(page, app);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(idp.url))
      asked.push(new URL(request.url()).pathname.replace(`/realms/${realm}/protocol/openid-connect/`, ''));
  });
  await page.goto(`${app.origin}/profile`);
  await expect(page.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });
  // the same host is one site: the check could only say `supported` (decisions/0097)
  await expect.poll(() => asked).toEqual(expect.arrayContaining(['login-status-iframe.html', 'auth', 'token']));
  expect(asked.filter((path) => path.startsWith('3p-cookies/'))).toEqual([]);
  expect(await page.evaluate(() => window.gatehouse!.snapshot().sessionWatch)).toBe('frame');
});

test.describe('a page on another site than the provider', () => {
  test.use({ appHost: '127.0.0.1' });

  test("asks the provider's third-party-cookie check, as keycloak-js does", async ({ page, context, app, idp, realm }) => {
    expect(realm).toBeTruthy(); // the page's config.json names it
    const answered = await answerThirdPartyCookiesUnsupported(context, idp.url);
    await page.goto(`${app.origin}/start`);
    await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
    expect(answered.checks).toBeGreaterThanOrEqual(1); // again after the full-page check-sso comes back
    expect(await page.evaluate(() => window.gatehouse!.snapshot().sessionWatch)).toBe('refresh');
  });
});
