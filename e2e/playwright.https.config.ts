import { defineConfig } from '@playwright/test';
import type { IdentityProviderSite, ThirdPartyCookies } from './https/support/sites';
import { onKeycloak } from './support/provider';
import { suiteIn } from './support/suiteSettings';

interface HttpsOptions {
  identityProviderSite: IdentityProviderSite;
  thirdPartyCookies: ThirdPartyCookies;
}

/**
 * The production builds over real HTTPS, each app and the identity provider on a site of its own
 * (portal.gatehouse.test, profile.gatehouse-cdn.test, sso.idp-vendor.test), in Chromium profiles that
 * allow or block third-party cookies (each cross-site test runs with both, in one project: withBothCookieSettings) — and the provider on the shell's site (sso.gatehouse.test) with
 * them blocked. One nginx per project on a free port, one identity provider per project behind it (the dev
 * provider, or with GATEHOUSE_IDP=keycloak a Keycloak 26 started with --hostname and --proxy-headers xforwarded,
 * which also runs the proxied topology: Keycloak under /auth of the shell's origin), a realm per test.
 *
 *   npx playwright test -c playwright.https.config.ts      (in e2e/)
 *   npm run test:keycloak -- https                         (on Keycloak)
 */
export default defineConfig<HttpsOptions>({
  ...suiteIn('https'),
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // Not e2e/test-results: the other Playwright configs clean their folders when they start.
  outputDir: onKeycloak ? '../.preview/https-results-keycloak' : '../.preview/https-results',
  use: { trace: 'retain-on-failure' },
  projects: [
    // each test twice, third-party cookies allowed and blocked (withBothCookieSettings), against one topology
    {
      name: 'cross-site',
      testMatch: 'cross-site/**/*.spec.ts',
      use: { identityProviderSite: 'cross-site' },
    },
    {
      name: 'same-site-cookies-blocked',
      testMatch: 'first-party/**/*.spec.ts',
      use: { identityProviderSite: 'same-site', thirdPartyCookies: 'blocked' },
    },
    // Keycloak only: the dev provider serves at the root, not under a path (its --hostname takes no path).
    ...(onKeycloak
      ? [
          {
            name: 'proxied-cookies-blocked',
            testMatch: 'first-party/**/*.spec.ts',
            use: { identityProviderSite: 'proxied' as const, thirdPartyCookies: 'blocked' as const },
          },
        ]
      : []),
  ],
});
