import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../../../playwright.chromium';

// Real Chromium against the real dev identity provider; the browser comes from the system because
// browser downloads are blocked here.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  forbidOnly: true,
  workers: 1,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    launchOptions: chromiumLaunchOptions,
  },
});
