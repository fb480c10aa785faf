import { expect, signIn, test } from './support/fixtures';
import { openSignedInTabs, useTokensInEveryTab, watchTokenEndpoint } from './support/tabs';

// 7 s tokens, refreshed when under 5 s are left: a refresh cycle every ~2 s while the tabs use tokens.
test.use({ tokenLifespan: 7 });

for (const revokeRefreshToken of [false, true]) {
  test.describe(revokeRefreshToken ? 'with revokeRefreshToken (rotation)' : 'with Keycloak defaults', () => {
    test.use({ revokeRefreshToken });

    test('5 tabs: one token-endpoint request per refresh cycle, every tab gets that token, no invalid_grant', async ({
      signedInPage: page,
      context,
      app,
      idp,
    }) => {
      const log = watchTokenEndpoint(context, idp.url);
      const tabs = [page, ...(await openSignedInTabs(context, app, 4))];

      const seen = await useTokensInEveryTab(tabs, log, 4);
      await new Promise((resolve) => setTimeout(resolve, 500)); // a request still on its way would be counted

      expect(log.invalidGrants).toBe(0);
      expect(log.refreshes).toBe(log.issued.length);
      // each issued token reached every tab (a second refresh in the same cycle would issue a token some tab never uses)
      for (const tokens of seen) for (const issued of log.issued.slice(0, 3)) expect(tokens).toContain(issued);
      for (const tab of tabs) expect(await tab.evaluate(() => window.gatehouse!.snapshot().status)).toBe('authenticated');
    });
  });
}

test('a new tab signs in from a live tab without a check-sso round trip', async ({ signedInPage: page, context, app, idp, realm }) => {
  const providerRequests: string[] = [];
  const tab = await context.newPage();
  tab.on('request', (request) => {
    if (request.url().startsWith(idp.url)) providerRequests.push(new URL(request.url()).pathname);
  });
  await tab.goto(`${app.origin}/second`);
  await expect(tab.locator('#status')).toHaveText('authenticated', { timeout: 15_000 });

  expect(providerRequests.filter((path) => path.endsWith('/auth') || path.endsWith('/token'))).toEqual([]);
  // the tokens' signatures are checked against the provider's keys; the session itself is watched by the leading tab
  expect(providerRequests).toContain(`/realms/${realm}/protocol/openid-connect/certs`);
  expect(providerRequests.filter((path) => path.includes('login-status-iframe'))).toEqual([]);
  // Both tabs hold the same token. The leading tab refreshes these 7 s tokens every ~2 s and the new one hears of it
  // over the tab channel, so a read of each may fall either side of a refresh (on a busy machine one read can take a
  // cycle): the new tab's token, read between two reads of the live tab's, is one of those two.
  await expect(async () => {
    const before = await page.evaluate(() => window.gatehouse!.session.getToken());
    const [theirs, after] = await Promise.all([
      tab.evaluate(() => window.gatehouse!.session.getToken()),
      page.evaluate(() => window.gatehouse!.session.getToken()),
    ]);
    expect([before, after]).toContain(theirs);
  }).toPass({ timeout: 10_000 });
});

test('when the leading tab closes, another tab takes over the refreshes', async ({ signedInPage: page, context, app, idp }) => {
  const [second, third] = await openSignedInTabs(context, app, 2);
  await page.close(); // the first tab led
  const log = watchTokenEndpoint(context, idp.url);

  await useTokensInEveryTab([second!, third!], log, 2);

  expect(log.invalidGrants).toBe(0);
  expect(log.refreshes).toBe(log.issued.length);
});

test('signing in in one tab signs in the other open tabs', async ({ page, context, app, realm }) => {
  expect(realm).toBeTruthy();
  const other = await context.newPage();
  await other.goto(`${app.origin}/other`);
  await expect(other.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });

  await signIn(page, app);

  await expect(other.locator('#status')).toHaveText('authenticated', { timeout: 5_000 });
  expect(await other.evaluate(() => window.gatehouse!.events.map((e) => e.type))).toEqual(['signedIn']);
});
