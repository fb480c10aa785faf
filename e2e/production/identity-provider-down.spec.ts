import { expect, test } from '@playwright/test';
import { fillLoginForm } from './support/browser';
import { startTcpProxy } from './support/tcpProxy';
import { previewConfig, SHELL, startTopology, type Topology } from './support/topology';

// The identity provider does not answer when the page loads: protected pages say so and offer
// Retry, public pages work, and once the provider is back Retry continues where the visitor was.

const DOWN_PORT = 8099;
let topology: Topology;
let proxy: { stop(): Promise<void> } | undefined;

test.beforeAll(async () => {
  const config = previewConfig();
  config.identityProvider.url = `http://localhost:${DOWN_PORT}`; // nothing listens there (yet)
  topology = await startTopology({ config });
});
test.afterAll(async () => {
  await proxy?.stop();
  await topology?.stop();
});

test('public pages work while the identity provider is down', async ({ page }) => {
  await page.goto(`${SHELL}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await page.goto(`${SHELL}/no-such-page`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('a protected page says sign-in is unavailable, and Retry works once the provider is back', async ({ page }) => {
  await page.goto(`${SHELL}/reports`);
  const alert = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Sign-in unavailable' }) });
  await expect(alert).toBeVisible({ timeout: 45_000 });
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();

  // The provider comes back at the configured address.
  proxy = await startTcpProxy(DOWN_PORT, 8080);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await fillLoginForm(page, 'carol');
  await expect(page).toHaveURL(`${SHELL}/reports`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toBeVisible();
});
