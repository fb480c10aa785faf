import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { withDemoClientScopes } from '@gatehouse/testkit/realm-scopes';
import { expect, signIn, test } from './support/fixtures';
import { openSignedInTabs, tokenLabel, watchTokenEndpoint } from './support/tabs';

// A second tab of a page whose remote calls its API asks the leading tab for the API's token. The leading tab
// held one in its cache and answered only itself, so the second tab's "Your API" card waited 10 s and failed.

/** The realm's client scopes as the demo realm has them: `profile-api` adds the audience profile-api (decisions/0055). */
test.beforeEach(async ({ idp, app, realm }) => {
  const admin = await signInAsAdmin(idp.url);
  await admin.realms.del({ realm });
  await admin.realms.create(withDemoClientScopes(testRealm(realm, { origin: app.origin })));
});

test("a second tab gets the API's token the leading tab holds, at once and without another refresh", async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  const api = { url: `${app.origin}/api/profile`, audience: 'profile-api', scope: 'profile-api' };
  // what the shell passes: sign in with the API's scope; the registry names the API
  app.setConfig({ url: idp.url, realm, clientId: 'gatehouse-shell', scopes: [api.scope], apis: [api] });
  await signIn(page, app);
  const log = watchTokenEndpoint(context, idp.url);
  const first = await page.evaluate((binding) => window.gatehouse!.session.forApi(binding).getToken(), api);
  // one downscoped refresh, in the tab that holds the refresh token (the log reads the answer's body: poll)
  await expect.poll(() => log.issued).toEqual([tokenLabel(first)]);

  const [second] = await openSignedInTabs(context, app, 1);
  const answer = await second!.evaluate(async (binding) => {
    const started = performance.now();
    const noAnswer = new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 3 s'), 3_000));
    const token = await Promise.race([window.gatehouse!.session.forApi(binding).getToken(), noAnswer]);
    const payload = token.split('.')[1];
    const claims = payload
      ? (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { aud?: unknown; cnf?: { jkt?: unknown } })
      : null;
    return { token, aud: claims?.aud ?? null, jkt: claims?.cnf?.jkt ?? null, ms: Math.round(performance.now() - started) };
  }, api);

  test.info().annotations.push({ type: 'second tab: API token after (ms)', description: String(answer.ms) });
  expect(answer.token === first ? 'the leading tab’s token' : tokenLabel(answer.token)).toBe('the leading tab’s token');
  expect(answer.aud).toBe('profile-api');
  // bound to the browser's DPoP key (decisions/0110), which both tabs hold through IndexedDB
  expect(answer.jkt).toMatch(/^[\w-]{43}$/);
  expect(log.refreshes).toBe(1); // served from the leading tab's cache
});
