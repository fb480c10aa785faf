import { ensureProductionBuilds } from '../../production/support/globalSetup';

/** Once per run: the production builds of the sources as they are now (shared with the production and HTTPS suites). */
export default function globalSetup(): void {
  ensureProductionBuilds('cluster e2e');
}
