import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The dev system of `playwright.config.ts` on a real Keycloak 26 (scripts/start.mjs uses the provider that already
 * answers on :8080), started with `deploy/keycloak/gatehouse-realm.json` imported as it is (`kc.sh start-dev
 * --import-realm`, admin `admin` with the generated password of `.keycloak/admin-password`). The global setup refuses
 * to run against anything but Keycloak 26. Two projects over one start of the dev servers (`npm run test:keycloak`'s
 * "dev" suite):
 *
 * - `dev`: the specs of `specs/` tagged `@idp`, whose assertions depend on the identity provider (e2e/README.md);
 * - `realm`: the Keycloak-only specs of `keycloak/`, what only Keycloak shows of the realm file.
 *
 *   GATEHOUSE_IDP=keycloak npx playwright test -c playwright.keycloak.config.ts [--project realm]   (in e2e/)
 */
export default defineConfig({
  ...base,
  forbidOnly: true,
  testDir: '.',
  globalSetup: './keycloak/support/globalSetup.ts',
  projects: [
    { name: 'dev', testMatch: 'specs/**/*.spec.ts', grep: /@idp/ },
    { name: 'realm', testMatch: 'keycloak/*.spec.ts' },
  ],
});
