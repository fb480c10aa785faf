import { expect, type Page } from '@playwright/test';

/** Signs in through the identity provider's real login form (ids shared by Keycloak and the dev provider). */
export async function fillLoginForm(page: Page, username: string, password = username): Promise<void> {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.locator('#kc-login').click();
}

/** From any shell page: Sign in, log in as `username`, wait until the header names the user. */
export async function signIn(page: Page, username: string): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
  await fillLoginForm(page, username);
  await expect(page.getByTestId('user-name')).toBeVisible({ timeout: 20_000 });
}

export interface PageWatch {
  /** console messages of every frame, as text */
  readonly console: string[];
  /** Content-Security-Policy violations reported by the page and its same-origin frames */
  cspViolations(): Promise<string[]>;
}

/**
 * Records the console and CSP violations. The violation listener is installed by the browser
 * driver, not by an inline script, so the page's own CSP does not block it.
 */
export async function watch(page: Page): Promise<PageWatch> {
  const console: string[] = [];
  page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} in ${event.documentURI}`);
    });
  });
  return {
    console,
    async cspViolations() {
      const fromConsole = console.filter((line) => /Content Security Policy/i.test(line));
      const fromEvents = await page
        .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
        .catch(() => [] as string[]);
      return [...fromConsole, ...fromEvents];
    },
  };
}
