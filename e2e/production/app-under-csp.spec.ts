import { expect, test } from '@playwright/test';
import { fillLoginForm, signIn, watch } from './support/browser';
import { SHELL, startTopology, type Topology } from './support/topology';

// The whole app works under the shell's Content-Security-Policy: signing in, the silent check-sso
// after a reload, and every remote — without a single CSP violation.

let topology: Topology;
test.beforeAll(async () => {
  topology = await startTopology();
});
test.afterAll(async () => {
  await topology?.stop();
});

test('alice signs in and opens every remote with no CSP violation', async ({ page }) => {
  const watched = await watch(page);
  await page.goto(`${SHELL}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await signIn(page, 'alice');

  for (const [route, heading] of [
    ['/profile', 'Profile'],
    ['/admin', 'Admin'],
    ['/reports', 'Reports'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: heading }).click();
    await expect(page).toHaveURL(`${SHELL}${route}`);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('[data-reason]')).toHaveCount(0);
  }

  // A reload restores the session through keycloak-js's check-sso (frames on both origins).
  await page.reload();
  await expect(page.getByTestId('user-name')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();

  expect(await watched.cspViolations()).toEqual([]);
});

test('a deep link opened signed out signs in and lands on that route', async ({ page }) => {
  const watched = await watch(page);
  await page.goto(`${SHELL}/reports`);
  await fillLoginForm(page, 'carol');
  await expect(page).toHaveURL(`${SHELL}/reports`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  expect(await watched.cspViolations()).toEqual([]);
});
