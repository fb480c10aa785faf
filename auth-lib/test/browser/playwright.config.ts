import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../../../playwright.chromium';

// Real Chromium against the real dev identity provider; the browser comes from the system because
// browser downloads are blocked here.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Two browsers at once, each test on its own (decisions/0087): every test has its own realm and page server, the
  // worker its own dev provider (or the one Keycloak), and the suite is mostly waiting on lifespans and check
  // intervals, so two at a time halve it without blurring a bound (30 of 30 at a load of ~25).
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  timeout: 60_000,
  reporter: [['list']],
  // A folder per provider: `.ci/run` runs this suite on the dev provider and on Keycloak at once.
  outputDir: process.env.GATEHOUSE_IDP === 'keycloak' ? 'test-results-keycloak' : 'test-results',
  use: {
    launchOptions: chromiumLaunchOptions,
  },
});
