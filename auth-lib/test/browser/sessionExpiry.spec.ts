import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { expect, signIn, test } from './support/fixtures';
import { openSignedInTabs } from './support/tabs';

declare global {
  interface Window {
    drafts?: string[];
  }
}

test('every tab warns at the same deadline; Stay signed in moves it everywhere; at the end each tab saves, then signs out', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  // SSO idle 14 s: the refresh token (and so the session) ends 14 s after the last refresh; warn 8 s before
  await (await signInAsAdmin(idp.url)).realms.update({ realm }, { ssoSessionIdleTimeout: 14 });
  app.configure({ expiryWarningSeconds: 8 });
  await signIn(page, app);
  const [other] = await openSignedInTabs(context, app, 1);
  const tabs = [page, other!];
  for (const tab of tabs) {
    await tab.evaluate(() => {
      window.drafts = [];
      window.gatehouse!.session.onBeforeSessionEnd(async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        window.drafts!.push('saved');
      });
    });
  }
  const deadline = () => Promise.all(tabs.map((tab) => tab.evaluate(() => window.gatehouse!.snapshot().expiresAt)));
  const [first, second] = await deadline();
  expect(first).toBeGreaterThan(Date.now());
  expect(second).toBe(first);

  // the deadline is the refresh token's exp, in whole seconds, put on this clock with keycloak-js's skew (itself
  // measured in whole seconds): extend once the provider's clock has surely reached a later second, or it cannot move
  const issuedAt = first! - 14_000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, issuedAt + 2_000 - Date.now())));
  await other!.evaluate(() => window.gatehouse!.session.extend());
  const [movedHere, movedThere] = await deadline();
  expect(movedHere).toBeGreaterThan(first!);
  expect(movedThere).toBe(movedHere);

  for (const tab of tabs) {
    await tab.waitForFunction(() => window.gatehouse!.events.some((e) => e.type === 'sessionExpiring'), undefined, { timeout: 20_000 });
    expect(await tab.evaluate(() => window.gatehouse!.events.find((e) => e.type === 'sessionExpiring'))).toEqual({
      type: 'sessionExpiring',
      expiresAt: movedHere,
    });
  }
  for (const tab of tabs) {
    await expect.poll(() => tab.evaluate(() => window.gatehouse!.snapshot().signOutReason), { timeout: 15_000 }).toBe('session-expired');
    expect(await tab.evaluate(() => window.drafts)).toEqual(['saved']);
  }
  // ended by the moved deadline (the polls above add their own latency on a loaded machine), not by a later check
  expect(Date.now()).toBeLessThan(movedHere! + 5_000);
});
