import { expect, signIn, test } from './support/fixtures';

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

test('authFetch sends the token to its own origin', async ({ page, app, realm }) => {
  expect(realm).toBeTruthy();
  await signIn(page, app);
  const echoed = await page.evaluate(
    async () => (await (await window.gatehouse!.session.authFetch('/api/echo')).json()) as { authorization: string },
  );
  expect(echoed.authorization).toMatch(/^Bearer eyJ/);
});

test('loadProfile reads the account endpoint alone; the ID token fills in what user-info would say', async ({ page, app, idp, realm }) => {
  expect(realm).toBeTruthy();
  await signIn(page, app);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(idp.url)) asked.push(`${request.method()} ${new URL(request.url()).pathname}`);
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
