import { endSessionsOf } from '@gatehouse/testkit/admin';
import { expect, signIn, status, test } from './support/fixtures';

// A second tab takes the access and ID tokens of a live tab (memory to memory, BroadcastChannel; never the refresh
// token) once their signatures verify against the provider's published keys, and is signed in at once; it asks the
// live tab for renewals (decisions/0053).

test('a second tab is signed in from a live tab with one request to the provider: its published keys', async ({
  signedInPage: page,
  context,
  app,
  idp,
  realm,
}) => {
  const tab = await context.newPage();
  const providerRequests: string[] = [];
  tab.on('request', (request) => {
    if (request.url().startsWith(idp.url)) providerRequests.push(new URL(request.url()).pathname);
  });

  await tab.goto(`${app.origin}/second`);
  await expect(tab.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });

  const snapshot = await tab.evaluate(() => window.gatehouse!.snapshot());
  expect(snapshot.user?.username).toBe('alice');
  expect(snapshot.realmRoles).toContain('admin');
  expect(await tab.evaluate(() => window.gatehouse!.session.getToken())).toBe(
    await page.evaluate(() => window.gatehouse!.session.getToken()),
  );
  await tab.waitForTimeout(500); // anything keycloak-js would still ask the provider for
  // no check-sso, no refresh, no login-status frame: only the keys the tokens were verified with
  expect(providerRequests).toEqual([`/realms/${realm}/protocol/openid-connect/certs`]);
  expect(await tab.evaluate(() => window.gatehouse!.events.map((e) => e.type))).toEqual(['signedIn']);
});

test('a seeded tab whose session already ended at the provider signs out with the leading tab at its next check', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  // a check every 2 s while a visitor uses a tab, every minute otherwise (decisions/0090): nobody uses the live tab,
  // so its check waits until the new tab is open
  app.configure({ sessionWatchSeconds: 2, sessionWatchIdleSeconds: 60 });
  await signIn(page, app);
  // the live tab does not notice the end by its frame: the frame's checks get no answer
  await page.route(`${idp.url}/**/login-status-iframe.html/**`, () => undefined);
  await endSessionsOf(idp.url, realm, 'alice');

  const tab = await context.newPage();
  await tab.goto(`${app.origin}/second`);
  await expect(tab.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });

  // the visitor's input in the new tab makes the leading tab check at once (user-info, decisions/0044, 0090); it
  // finds the session gone and tells every tab
  await tab.keyboard.press('Shift');
  await expect.poll(() => status(tab), { timeout: 15_000, intervals: [100] }).toBe('anonymous');
  expect(await status(page)).toBe('anonymous');
  expect(await tab.evaluate(() => window.gatehouse!.snapshot())).toMatchObject({ signOutReason: 'session-ended', user: null });
  await expect(tab.evaluate(() => window.gatehouse!.session.getToken())).rejects.toThrow(/No one is signed in/);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test("a new tab that cannot fetch the provider's keys is not signed in with tokens it could not verify", async ({
  signedInPage: page,
  context,
  app,
  idp,
}) => {
  app.configure({ timeout: 2_000 }); // for the new tab
  const tab = await context.newPage();
  const statuses: string[] = [];
  await tab.exposeFunction('recordStatus', (value: string) => void statuses.push(value));
  await tab.addInitScript(() => {
    const record = () => {
      const handle = (window as unknown as { gatehouse?: { snapshot(): { status: string } } }).gatehouse;
      if (handle) (window as unknown as { recordStatus(v: string): void }).recordStatus(handle.snapshot().status);
    };
    setInterval(record, 20);
  });
  await tab.route(`${idp.url}/**`, () => undefined); // the provider never answers this tab

  await tab.goto(`${app.origin}/second`);

  await expect.poll(() => status(tab), { timeout: 15_000, intervals: [100] }).toBe('error');
  expect(statuses).not.toContain('authenticated');
  expect(await tab.evaluate(() => window.gatehouse!.snapshot().error?.code)).toBe('idp-unreachable');
  await expect(tab.evaluate(() => window.gatehouse!.session.getToken())).rejects.toThrow(/No one is signed in/);
  expect(await status(page)).toBe('authenticated'); // the live tab keeps its session
  await tab.unrouteAll({ behavior: 'ignoreErrors' });
});
