import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The demo realm file proven on a real Keycloak 26: the dev system of `playwright.config.ts`
 * (scripts/start.mjs uses the provider that already answers on :8080) with Keycloak there, started with
 * `deploy/keycloak/gatehouse-realm.json` imported as it is (`kc.sh start-dev --import-realm`, admin
 * `admin`/`admin`). The global setup refuses to run against anything but Keycloak 26.
 *
 * Runs the Keycloak-only specs of `keycloak/` and the specs of `specs/` for what the realm README promises
 * (sign-in and roles, account reads, sign-out, logout noticed through the login-status frame, step-up).
 */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: [
    'keycloak/*.spec.ts',
    'specs/navigation-is-filtered-by-roles.spec.ts',
    'specs/profile-shows-the-signed-in-user.spec.ts',
    'specs/reports-admin-part-needs-the-admin-role.spec.ts',
    'specs/deep-link-returns-to-the-route-after-sign-in.spec.ts',
    'specs/sign-out.spec.ts',
    'specs/logout-at-the-provider-is-noticed.spec.ts',
    'specs/step-up-before-the-admin-remote-is-fetched.spec.ts',
    'specs/admin-shows-the-current-session.spec.ts',
  ],
  globalSetup: './keycloak/support/globalSetup.ts',
});
