import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The demo realm file proven on a real Keycloak 26: the dev system of `playwright.config.ts`
 * (scripts/start.mjs uses the provider that already answers on :8080) with Keycloak there, started with
 * `deploy/keycloak/gatehouse-realm.json` imported as it is (`kc.sh start-dev --import-realm`, admin
 * `admin` with the generated password of `.keycloak/admin-password`). The global setup refuses to run against anything but Keycloak 26.
 *
 * Runs the Keycloak-only specs of `keycloak/`; the specs of `specs/` for the rest of what the realm README
 * promises (sign-in and roles, account reads, sign-out, step-up) run on Keycloak in the dev suite of
 * `npm run test:keycloak`, which runs this config too (its "realm" suite).
 */
export default defineConfig({
  ...base,
  forbidOnly: true,
  testDir: '.',
  testMatch: 'keycloak/*.spec.ts',
  globalSetup: './keycloak/support/globalSetup.ts',
});
