import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '@gatehouse/testkit/chromium';

/**
 * Browser tests of the dev IdP: real keycloak-js in Debian's Chromium against a dev IdP
 * started in the worker (see browser/fixtures.ts). Each test makes its own realm.
 */
export default defineConfig({
  testDir: './browser',
  testMatch: '*.spec.ts',
  workers: 2,
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions(),
  },
});
