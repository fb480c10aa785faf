import type { Route } from '@playwright/test';
import { endSessionsOf } from '@gatehouse/testkit/admin';
import { chosenProvider } from '@gatehouse/testkit/keycloak';
import { expect, signIn, status, test } from './support/fixtures';

// A second tab takes the tokens of a live tab (memory to memory, BroadcastChannel) and is signed in at once;
// keycloak-js's init with those tokens (third-party-cookie check, login-status frame) confirms them behind it.

// The first two tests watch the dev provider's login-status frame ask its server (`…/login-status-iframe.html/status`);
// Keycloak's frame answers from the KEYCLOAK_SESSION cookie without a request, and does not see a session an
// administrator ended (deploy/keycloak/README.md, "Where the dev provider and Keycloak differ").
const FRAME_ASKS_THE_SERVER = "the dev provider's login-status frame asks its server; Keycloak's reads the cookie";

test('a second tab is signed in from a live tab before the identity provider has answered anything', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  test.skip(chosenProvider() === 'keycloak', FRAME_ASKS_THE_SERVER);
  expect(realm).toBeTruthy();
  await signIn(page, app);
  const tab = await context.newPage();
  const providerRequests: string[] = [];
  tab.on('request', (request) => {
    if (request.url().startsWith(idp.url)) providerRequests.push(new URL(request.url()).pathname);
  });
  // every request of the new tab (and its frames) to the provider is held until the tab is signed in
  const held: Route[] = [];
  let holding = true;
  await tab.route(`${idp.url}/**`, (route) => (holding ? void held.push(route) : route.continue()));

  await tab.goto(`${app.origin}/second`);
  await expect(tab.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });

  const snapshot = await tab.evaluate(() => window.gatehouse!.snapshot());
  expect(snapshot.user?.username).toBe('alice');
  expect(snapshot.realmRoles).toContain('admin');
  expect(await tab.evaluate(() => window.gatehouse!.session.getToken())).toBe(
    await page.evaluate(() => window.gatehouse!.session.getToken()),
  );
  expect(providerRequests.filter((path) => path.endsWith('/auth') || path.endsWith('/token'))).toEqual([]); // no check-sso, no refresh

  // now the provider may answer: keycloak-js confirms the session behind the signed-in tab, and nothing changes
  const frameAnswer = tab.waitForResponse((response) => response.url().includes('/login-status-iframe.html/status'), { timeout: 10_000 });
  holding = false;
  for (const route of held.splice(0)) await route.continue();
  expect(await (await frameAnswer).text()).toBe('unchanged');
  await tab.waitForTimeout(300); // the frame's answer reaches keycloak-js
  expect(await status(tab)).toBe('authenticated');
  expect(await tab.evaluate(() => window.gatehouse!.events.map((e) => e.type))).toEqual(['signedIn']);
  expect(providerRequests.filter((path) => path.endsWith('/auth') || path.endsWith('/token'))).toEqual([]);
});

test('a seeded tab whose session already ended at the provider signs out with reason session-ended', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  test.skip(chosenProvider() === 'keycloak', FRAME_ASKS_THE_SERVER);
  await signIn(page, app);
  // the live tab does not notice the end yet: its login-status frame's checks get no answer
  await page.route(`${idp.url}/**/login-status-iframe.html/status*`, () => undefined);
  await endSessionsOf(idp.url, realm, 'alice');
  expect(await status(page)).toBe('authenticated');

  const tab = await context.newPage();
  await tab.goto(`${app.origin}/second`);

  await expect.poll(() => status(tab), { timeout: 15_000, intervals: [100] }).toBe('anonymous');
  const snapshot = await tab.evaluate(() => window.gatehouse!.snapshot());
  expect(snapshot).toMatchObject({ signOutReason: 'session-ended', user: null });
  // it was seeded (signed in at once), then signed out when the provider did not confirm the session
  expect(await tab.evaluate(() => window.gatehouse!.events)).toEqual([
    expect.objectContaining({ type: 'signedIn' }),
    { type: 'signedOut', reason: 'session-ended' },
  ]);
  await expect(tab.evaluate(() => window.gatehouse!.session.getToken())).rejects.toThrow(/No one is signed in/);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('a seeded tab whose provider never confirms the session signs out after the timeout, not later', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  await signIn(page, app);
  app.setConfig({ url: idp.url, realm, clientId: 'gatehouse-shell', timeout: 2_000 }); // for the new tab
  const tab = await context.newPage();
  await tab.route(`${idp.url}/**`, () => undefined); // the provider never answers this tab (its frames hang)

  await tab.goto(`${app.origin}/second`);
  await expect(tab.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });
  const signedInAt = Date.now();

  await expect.poll(() => status(tab), { timeout: 10_000, intervals: [100] }).toBe('anonymous');
  expect(Date.now() - signedInAt).toBeLessThan(2_000 + 1_500);
  expect(await tab.evaluate(() => window.gatehouse!.snapshot().signOutReason)).toBe('session-ended');
  await expect(tab.evaluate(() => window.gatehouse!.session.getToken())).rejects.toThrow(/No one is signed in/);
  expect(await status(page)).toBe('authenticated'); // the live tab keeps its confirmed session
  await tab.unrouteAll({ behavior: 'ignoreErrors' });
});
