'use strict';
// The identity provider's login form, as every browser test and the benchmark fill it.

/**
 * Fills the identity provider's login form and submits it. The field ids (`#username`, `#password`,
 * `#kc-login`) are Keycloak's, which the dev provider serves too, so the same call signs in at either.
 * Does not wait for the redirect back: callers wait for what their page shows next.
 *
 * @param {import('@playwright/test').Page} page a page showing the login form (or about to)
 * @param {string} username
 * @param {string} [password] the demo users' password is their username
 * @returns {Promise<void>}
 */
async function fillLoginForm(page, username, password = username) {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.locator('#kc-login').click();
}

module.exports = { fillLoginForm };
