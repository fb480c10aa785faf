import { expect, signIn, test } from './support/fixtures';
import { openSignedInTabs } from './support/tabs';

test('activity in one tab keeps every tab signed in; without it every tab is signed out as idle', async ({
  page,
  context,
  app,
  idp,
  realm,
}) => {
  // 0.15 minutes: 9 s without a key, click, wheel or touch in any tab
  app.setConfig({ url: idp.url, realm, clientId: 'gatehouse-shell', idleTimeoutMinutes: 0.15, expiryWarningSeconds: 2 });
  await signIn(page, app);
  const [other] = await openSignedInTabs(context, app, 1);
  const tabs = [page, other!];
  // the tab whose timer fires first signs out at the provider and navigates, so each tab keeps its reason in sessionStorage
  for (const tab of tabs) {
    await tab.evaluate(() =>
      window.gatehouse!.session.on((e) => {
        if (e.type === 'signedOut') sessionStorage.setItem('signedOut', (sessionStorage.getItem('signedOut') ?? '') + e.reason);
      }),
    );
  }
  const firstDeadline = Date.now() + 9_000;

  // only the first tab sees activity; it tells the other
  while (Date.now() < firstDeadline + 3_000) {
    await page.keyboard.press('Shift');
    await page.waitForTimeout(1_000);
  }
  for (const tab of tabs) {
    expect(await tab.evaluate(() => window.gatehouse!.snapshot().status)).toBe('authenticated');
  }

  // either tab may be the one on its way through the provider's logout: an evaluate it interrupts is asked again
  const read = <T>(tab: (typeof tabs)[number], fn: () => T) => tab.evaluate(fn).catch(() => 'navigating');
  for (const tab of tabs) {
    await expect.poll(() => read(tab, () => sessionStorage.getItem('signedOut')), { timeout: 15_000 }).toBe('idle');
    await expect.poll(() => read(tab, () => window.gatehouse?.snapshot().status)).toBe('anonymous');
  }
});
