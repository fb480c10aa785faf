import { ensureProductionBuilds } from '../../production/support/globalSetup';

/** Once per run: the production builds of the sources as they are now (shared with the production and HTTPS suites). */
export default async function globalSetup(): Promise<void> {
  await ensureProductionBuilds('cluster e2e');
}
