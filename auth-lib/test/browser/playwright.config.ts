import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../../../playwright.chromium';

// Real Chromium against the real dev identity provider; the browser comes from the system because
// browser downloads are blocked here.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // One test at a time: with two at once (each test has its own realm and page server, so they could) the multi-tab
  // refresh specs' 7 s tokens were refreshed between two tabs' reads on a loaded CI machine (decisions/0087).
  fullyParallel: false,
  forbidOnly: true,
  workers: 1,
  timeout: 60_000,
  reporter: [['list']],
  // A folder per provider: `.ci/run` runs this suite on the dev provider and on Keycloak at once.
  outputDir: process.env.GATEHOUSE_IDP === 'keycloak' ? 'test-results-keycloak' : 'test-results',
  use: {
    launchOptions: chromiumLaunchOptions,
  },
});
