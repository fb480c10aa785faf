import { defineConfig } from '@playwright/test';
import { suiteIn } from './support/suiteSettings';

/**
 * A remote team's repository installing the platform's packages from a registry, as organisations run it:
 * a local Verdaccio (free port, storage in a temp folder, the public registry as uplink for third-party
 * packages), the packages published there, the remote scaffolded against it and its CI run from a fresh clone.
 * No browser; it needs the network for third-party packages the npm cache lacks, so it runs outside a network
 * namespace, on free ports only (decisions/0049).
 *
 *   npx playwright test -c playwright.registry.config.ts      (in e2e/)
 */
export default defineConfig({
  ...suiteIn('registry'),
  testMatch: '**/*.spec.ts',
  timeout: 900_000,
  // Not e2e/test-results: the other Playwright configs clean their folders when they start.
  outputDir: '../.preview/registry-results',
});
