import { expect, status, test } from './support/fixtures';

test('sign-out in one tab reaches the other tab at once', async ({ signedInPage: page, context, app }) => {
  const other = await context.newPage();
  await other.goto(`${app.origin}/other`);
  await expect(other.locator('#status')).toHaveText('authenticated', { timeout: 15_000 }); // silent check-sso

  const started = Date.now();
  await page.evaluate(() => void window.gatehouse!.session.logout({ redirectTo: '/bye' }));
  await expect.poll(() => status(other), { timeout: 4_000, intervals: [50] }).toBe('anonymous');
  const elapsed = Date.now() - started;

  // other-tab (the broadcast), not session-ended (the login-status frame, up to 5 s later)
  expect(await other.evaluate(() => window.gatehouse!.snapshot().signOutReason)).toBe('other-tab');
  expect(elapsed).toBeLessThan(4_000);
  await page.waitForURL(`${app.origin}/bye`);
  await expect(page.locator('#status')).toHaveText('anonymous', { timeout: 15_000 });
});
