import { endSessionsOf } from '@gatehouse/testkit/admin';
import { chosenProvider } from '@gatehouse/testkit/keycloak';
import { expect, signIn, status, test } from './support/fixtures';
import { openSignedInTabs, visitorUsing } from './support/tabs';

// With the login-status frame running, a revocation is noticed by the leading tab's server check within
// sessionWatchSeconds (15) + the request's time (decisions/0044) while a visitor uses a tab (decisions/0090).
const NOTICED_WITHIN_MS = 30_000;

test('with the frame running, an admin revocation the frame cannot see signs every tab out within 30 s while a visitor uses one', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  // Keycloak's frame only compares its KEYCLOAK_SESSION cookie, which a revocation leaves in place: its answer
  // stays `unchanged`. The dev provider's frame asks the server, so there its answer is replaced by Keycloak's; on
  // Keycloak the real frame runs (its one `…/init` per frame was accepted).
  const frameChecks = { count: 0 };
  if (chosenProvider() === 'keycloak') {
    context.on('response', (response) => {
      if (
        response.url().startsWith(`${idp.url}/realms/${realm}/protocol/openid-connect/login-status-iframe.html/init?`) &&
        response.status() === 204
      )
        frameChecks.count += 1;
    });
  } else {
    await context.route(`${idp.url}/realms/${realm}/protocol/openid-connect/login-status-iframe.html/status?*`, async (route) => {
      frameChecks.count += 1;
      await route.fulfill({ contentType: 'text/plain', headers: { 'Cache-Control': 'no-store' }, body: 'unchanged' });
    });
  }
  await signIn(page, app);
  const tabs = [page, ...(await openSignedInTabs(context, app, 2))];
  for (const tab of tabs) expect(await tab.evaluate(() => window.gatehouse!.snapshot().sessionWatch)).toBe('frame');
  await expect.poll(() => frameChecks.count).toBeGreaterThan(0); // the frame runs

  const stopUsing = visitorUsing(tabs[2]!);
  const revokedAt = Date.now();
  await endSessionsOf(idp.url, realm, 'alice');
  for (const tab of tabs) {
    await expect.poll(() => status(tab), { timeout: NOTICED_WITHIN_MS - (Date.now() - revokedAt), intervals: [100] }).toBe('anonymous');
  }
  stopUsing();
  test.info().annotations.push({ type: 'noticed after (ms)', description: String(Date.now() - revokedAt) });
  for (const tab of tabs) {
    expect(await tab.evaluate(() => window.gatehouse!.snapshot())).toMatchObject({ signOutReason: 'session-ended', sessionWatch: 'frame' });
  }
});
