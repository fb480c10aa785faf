import { defineConfig } from '@playwright/test';
import { onKeycloak, PROVIDER } from './support/provider';
import { IN_CHROMIUM, ONE_AT_A_TIME } from './support/suiteSettings';
import { SHELL } from './support/system';

/**
 * Browser tests over the running system (dev identity provider + shell + remotes, as `npm start` runs
 * them; with GATEHOUSE_IDP=keycloak a real Keycloak 26 instead, as `npm start -- --idp keycloak`), in Debian's Chromium. One behaviour per spec file; specs share the system, so they run one
 * at a time and every test signs in from a fresh browser context.
 */
export default defineConfig({
  testDir: './specs',
  ...ONE_AT_A_TIME,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: './support/globalSetup.ts',
  // A folder per provider: `.ci/run` runs this suite on both at once, and Playwright empties its folder when it starts.
  outputDir: onKeycloak ? 'test-results-keycloak' : 'test-results',
  use: { ...IN_CHROMIUM, baseURL: SHELL },
  webServer: {
    command: `node ../scripts/start.mjs --idp ${PROVIDER}`,
    // The last app to come up; globalSetup then waits for every other one.
    url: 'http://localhost:3003/mf-manifest.json',
    reuseExistingServer: !process.env.CI,
    // Keycloak's first start also fetches it with Maven and imports the realm.
    timeout: onKeycloak ? 420_000 : 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // start.mjs stops its apps' process trees on SIGTERM; a SIGKILL would orphan them.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
