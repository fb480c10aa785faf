import { expect, test } from './support/fixtures';

test.use({ tokenLifespan: 8 });

test('refreshes the token on its own while in use, across expiry', async ({ signedInPage: page }) => {
  // ask for a token every 500 ms for 20 s (2.5 token lifetimes): each must be valid for 5 s or more
  const seen = await page.evaluate(async () => {
    const results: { token: string; validFor: number }[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const token = await window.gatehouse!.session.getToken();
      const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number };
      results.push({ token, validFor: payload.exp * 1000 - Date.now() });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return results;
  });

  const distinct = new Set(seen.map((s) => s.token));
  expect(distinct.size).toBeGreaterThanOrEqual(3);
  for (const { validFor } of seen) expect(validFor).toBeGreaterThanOrEqual(4_000); // 5 s, less clock rounding
  expect(await page.evaluate(() => window.gatehouse!.snapshot().status)).toBe('authenticated');
  const refreshes = await page.evaluate(() => window.gatehouse!.events.filter((e) => e.type === 'tokenRefreshed').length);
  expect(refreshes).toBe(distinct.size - 1);
});

test('concurrent getToken calls near expiry make one refresh request', async ({ signedInPage: page, idp }) => {
  let refreshRequests = 0;
  page.on('request', (request) => {
    if (request.url().startsWith(idp.url) && request.postData()?.includes('grant_type=refresh_token')) {
      refreshRequests += 1;
    }
  });
  // wait until the 8 s token has under 5 s left
  await page.waitForFunction(() => (window.gatehouse!.snapshot().tokenExpiresAt ?? 0) - Date.now() < 4_500, undefined, { timeout: 10_000 });
  const tokens = await page.evaluate(() => Promise.all(Array.from({ length: 50 }, () => window.gatehouse!.session.getToken())));
  expect(new Set(tokens).size).toBe(1);
  expect(refreshRequests).toBe(1);
});
