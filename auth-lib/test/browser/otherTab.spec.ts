import { expect, status, test } from './support/fixtures';

test('sign-out in one tab reaches the other tab at once', async ({ signedInPage: page, context, app }) => {
  const other = await context.newPage();
  await other.goto(`${app.origin}/other`);
  await expect(other.locator('#status')).toHaveText('authenticated', { timeout: 15_000 }); // silent check-sso

  // The other tab goes anonymous once the provider has ended the session (it proves the broadcast with the provider,
  // decisions/0108): "at once" is counted from the provider's answer to the sign-out (its redirect back to /bye), not
  // from the click, since a loaded provider may take seconds over the logout itself.
  await page.evaluate(() => void window.gatehouse!.session.logout({ redirectTo: '/bye' }));
  await page.waitForURL(`${app.origin}/bye`, { timeout: 30_000 });
  const providerAnswered = Date.now();
  await expect.poll(() => status(other), { timeout: 4_000, intervals: [50] }).toBe('anonymous');
  const elapsed = Date.now() - providerAnswered;

  // other-tab (the broadcast), not session-ended (the login-status frame, up to 5 s later)
  expect(await other.evaluate(() => window.gatehouse!.snapshot().signOutReason)).toBe('other-tab');
  expect(elapsed).toBeLessThan(4_000);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
});
