// Takes docs/screenshot-shell.png (the README's picture): alice signed in, on her profile.
// Run with the system up (`npm start`): npx playwright test -c screenshot/playwright.config.ts
import { expect, test } from '@playwright/test';
import path from 'node:path';
import { openSignedIn } from '../support/flows';

test('screenshot of the signed-in shell', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 640 });
  await openSignedIn(page, 'alice', '/profile');
  await expect(page.getByTestId('full-name')).toHaveText('Alice Anders');
  await expect(page.getByText('Loading your account details…')).toHaveCount(0);
  await page.screenshot({ path: path.join(__dirname, '..', '..', 'docs', 'screenshot-shell.png') });
});
