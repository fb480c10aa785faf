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

test('loadProfile reads user-info and the account endpoint', async ({ page, app, realm }) => {
  expect(realm).toBeTruthy();
  await signIn(page, app);
  const profile = await page.evaluate(() => window.gatehouse!.session.loadProfile());
  expect(profile).toMatchObject({
    username: 'alice',
    firstName: 'Alice',
    lastName: 'Anders',
    email: 'alice@example.com',
    emailVerified: true,
  });
});
