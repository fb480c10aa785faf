import { defineConfig } from '@playwright/test';
import { IN_CHROMIUM, suiteIn } from './support/suiteSettings';

/**
 * Open pages against a Keycloak cluster: two Keycloak 26 nodes in production mode on one PostgreSQL,
 * clustered over it (the default `jdbc-ping` stack), behind nginx (cluster/support/cluster.ts), with the
 * production builds served as in the production suite. Keycloak only: the dev provider keeps its sessions in
 * memory and is one process (dev-idp/README.md). The specs share one cluster and nginx's fixed ports 4000–4003,
 * so they run one at a time, in the order of their file names; each starts the nodes it needs and leaves the cluster
 * as it ends (support/fixtures.ts, `runningNodes`), so the order saves node starts: the node killed stays down for
 * the Keycloak on its own, which the rolling restart then joins with the other.
 *
 *   npm run test:keycloak -- cluster                            (from the repository root)
 *   npx playwright test -c playwright.cluster.config.ts         (in e2e/)
 */
export default defineConfig({
  ...suiteIn('cluster'),
  testMatch: '**/*.spec.ts',
  timeout: 300_000,
  expect: { timeout: 20_000 },
  // Not e2e/test-results: the other Playwright configs clean their folders when they start.
  outputDir: '../.preview/cluster-results',
  use: IN_CHROMIUM,
});
