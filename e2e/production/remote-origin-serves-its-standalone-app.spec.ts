import { expect, test } from '@playwright/test';
import { fillLoginForm, watch } from './support/browser';
import { REMOTE_ORIGINS, startTopology, type Topology } from './support/topology';

// A remote's own origin serves its standalone app (decisions/0018): the page its team opens to try a
// deployed build alone. It signs in by itself, routes fall back to index.html, files do not, and the
// page runs under its own CSP, which lets nobody but itself frame it.

let topology: Topology | undefined;

test.beforeAll(async () => {
  topology = await startTopology();
});
test.afterAll(async () => {
  await topology?.stop();
});

test('routes of the standalone app serve its index.html, with its own CSP and no-cache; missing files stay 404', async ({ request }) => {
  for (const path of ['/', '/some/deep/route']) {
    const response = await request.get(`${REMOTE_ORIGINS.profile}${path}`);
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type'], path).toContain('text/html');
    expect(await response.text(), path).toContain('<div id="root"></div>');
    expect(response.headers()['cache-control'], path).toBe('no-cache');
    const csp = response.headers()['content-security-policy'] ?? '';
    expect(csp, path).toContain("frame-ancestors 'self'");
    expect(csp, path).toContain("script-src 'self';");
    expect(csp, path).not.toContain('unsafe');
  }
  for (const path of ['/missing.js', '/__federation_expose_App.0123abcd.js']) {
    expect((await request.get(`${REMOTE_ORIGINS.profile}${path}`)).status(), path).toBe(404);
  }
});

test('the standalone app at the remote origin signs in by itself and renders the remote, with no CSP violation @idp', async ({ page }) => {
  const watching = await watch(page);
  await page.goto(`${REMOTE_ORIGINS.profile}/`);
  await fillLoginForm(page, 'alice');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('user-name')).toHaveText('Alice Anders');
  await expect(page.getByTestId('full-name')).toHaveText('Alice Anders');
  expect(new URL(page.url()).origin).toBe(REMOTE_ORIGINS.profile);
  expect(await watching.cspViolations()).toEqual([]);
});
