// The identity provider's login form, as every browser test and the benchmark fill it.

import type { Page } from '@playwright/test';

/**
 * Fills the identity provider's login form and submits it. The field ids (`#username`, `#password`,
 * `#kc-login`) are Keycloak's, which the dev provider serves too, so the same call signs in at either.
 * Does not wait for the redirect back: callers wait for what their page shows next.
 *
 * It submits with Enter in the password field, as many people do (the form's Sign In button is its default
 * button, so this is that button's submission), after checking the button is there. A click on the button once
 * submitted nothing (production `@idp` on Keycloak: Playwright performed the click, no request followed, the page
 * stayed on the filled form; the cause was not found, Keycloak's web fonts were still loading): Enter in the field
 * depends on no coordinates and no layout.
 *
 * @param page a page showing the login form (or about to)
 * @param password the demo users' password is their username
 */
async function fillLoginForm(page: Page, username: string, password: string = username): Promise<void> {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.locator('#kc-login').waitFor({ state: 'visible' });
  await page.locator('#password').press('Enter');
}

export { fillLoginForm };
