import { expect, test } from '@playwright/test';

test('a config.json with mistakes gets a page that lists them, not a blank screen', async ({ page }) => {
  await page.route('**/config.json', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        identityProvider: { url: 'localhost', realm: 'gatehouse' },
        remotes: [{ name: 'profile', route: '/profile' }],
      }),
    }),
  );
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gatehouse cannot start');
  await expect(page.getByRole('alert')).toContainText('its settings have a mistake');
  // the problems, written for whoever deploys the shell, are behind "Details"
  await page.getByText('Details').click();
  const problems = page.getByRole('alert').getByRole('listitem');
  await expect(problems.filter({ hasText: "identityProvider.url must be the provider's absolute http(s) base URL" })).toHaveCount(1);
  await expect(problems.filter({ hasText: 'identityProvider.clientId is missing' })).toHaveCount(1);
  await expect(problems.filter({ hasText: 'remotes[0] ("profile").manifest' })).toHaveCount(1);
});

test('a missing config.json gets a page that says so', async ({ page }) => {
  await page.route('**/config.json', (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gatehouse cannot start');
  await expect(page.getByRole('alert')).toContainText('/config.json answered HTTP 404');
});
