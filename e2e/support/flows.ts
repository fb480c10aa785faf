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
 * Answers the provider's step-up for a level above the password: a password form for the user already
 * signed in, at the authorization URL. The dev provider asks for the password again; the demo realm's
 * browser flow makes Keycloak do the same (its Password Form; production puts OTP or WebAuthn there).
 * Both name the user in `#kc-attempted-username` (Keycloak: a read-only input, the dev provider: text)
 * and have no username field; their titles differ ("Sign In", "Confirm it is you").
 */
export async function stepUpAtProvider(page: Page, user: DemoUser, origin = 'http://localhost:3000'): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(`${IDP}/realms/gatehouse/protocol/openid-connect/auth`));
  const attempted = page.locator('#kc-attempted-username');
  await expect(attempted).toBeVisible();
  expect(await attempted.evaluate((el) => (el instanceof HTMLInputElement ? el.value : el.textContent))).toBe(USERS[user].username);
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
