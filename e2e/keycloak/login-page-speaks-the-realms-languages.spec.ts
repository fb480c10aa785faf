import { expect, test } from '@playwright/test';
import { REALM_URL, SHELL } from '../support/system';

// The realm file's internationalizationEnabled + supportedLocales ["en", "de"]: keycloak-js sends
// `login({ locale })` as ui_locales, and Keycloak shows its login page in that language.
for (const [locale, title] of [
  ['de', 'Bei Ihrem Konto anmelden'],
  ['en', 'Sign in to your account'],
] as const) {
  test(`the login page asked for with ui_locales=${locale} is titled "${title}"`, async ({ page }) => {
    const url = new URL(`${REALM_URL}/protocol/openid-connect/auth`);
    url.search = new URLSearchParams({
      client_id: 'gatehouse-shell',
      redirect_uri: `${SHELL}/`,
      response_type: 'code',
      scope: 'openid',
      ui_locales: locale,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    await page.goto(url.href);

    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page.locator('#kc-page-title')).toHaveText(title);
  });
}
