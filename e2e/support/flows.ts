import { expect, type Page, type Request } from '@playwright/test';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { IDP, USERS, type DemoUser } from './system';

/** Fills the identity provider's login form (Keycloak's field ids) and waits to be back on `origin`. */
export async function signInAtProvider(page: Page, user: DemoUser, origin = 'http://localhost:3000'): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(IDP));
  await fillLoginForm(page, USERS[user].username);
  await page.waitForURL((url) => url.origin === origin);
}

/**
 * Answers the provider's step-up for a level above the password: the demo realm's browser flow (and the dev
 * provider) asks the signed-in user for the password again at the authorization URL. Both show whom it is for
 * in Keycloak's read-only `#kc-attempted-username` and ask for nothing but the password — not the sign-in form
 * again (their page titles differ: Keycloak's says "Sign In").
 */
export async function stepUpAtProvider(page: Page, user: DemoUser, origin = 'http://localhost:3000'): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(`${IDP}/realms/gatehouse/protocol/openid-connect/auth`));
  await expect(page.locator('#kc-attempted-username')).toHaveValue(USERS[user].username);
  await expect(page.locator('#username')).toHaveCount(0);
  await page.locator('#password').fill(USERS[user].username);
  await page.locator('#kc-login').click();
  await page.waitForURL((url) => url.origin === origin);
}

/** Opens `path` of the shell signed out, signs in as `user` when sent to the provider, and waits for the page. */
export async function openSignedIn(page: Page, user: DemoUser, path = '/'): Promise<void> {
  if (path === '/') {
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
  } else {
    await page.goto(path);
  }
  await signInAtProvider(page, user);
  await expect(page.getByTestId('user-name')).toHaveText(USERS[user].name);
}

/** Records every request the page makes to `origin`. */
export function requestsTo(page: Page, origin: string): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).origin === origin) seen.push(request);
  });
  return seen;
}

/** The navigation links of the shell's header, in order. */
export async function navigationLinks(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();
}
