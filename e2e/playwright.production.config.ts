import { defineConfig } from '@playwright/test';
import { onKeycloak } from './support/provider';
import { IN_CHROMIUM, suiteIn } from './support/suiteSettings';

/**
 * The failure matrix against the production topology: real builds, served by real nginx from the
 * deployable configuration (deploy/nginx), each app on its own origin, the dev identity provider.
 * Every spec restarts nginx on the same ports (4000–4003), so they run one at a time.
 *
 *   npx playwright test -c playwright.production.config.ts      (in e2e/)
 */
export default defineConfig({
  ...suiteIn('production'),
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // Not e2e/test-results: the other Playwright config cleans that folder when it starts. A folder per provider:
  // `.ci/run` runs this suite on both at once.
  outputDir: onKeycloak ? '../.preview/test-results-keycloak' : '../.preview/test-results',
  use: IN_CHROMIUM,
});
