import { expect, type Locator, type Page } from '@playwright/test';
import { fillLoginForm } from '@gatehouse/testkit/login-form';

export { fillLoginForm };

/**
 * Clicks Retry in the failed slot of `remote` and waits for the retry's own request to the remote's
 * `origin` and for a failure rendered afresh (the one shown before is marked, so it cannot pass for it).
 * Returns the new failure.
 */
export async function retryAndFailAgain(page: Page, remote: string, origin: string): Promise<Locator> {
  const failed = page.locator(`[data-remote="${remote}"][data-reason]`);
  await failed.evaluate((element) => element.setAttribute('data-before-retry', ''));
  const retryRequest = page.waitForRequest((request) => new URL(request.url()).origin === origin);
  await failed.getByRole('button', { name: 'Retry' }).click();
  await retryRequest;
  const fresh = page.locator(`[data-remote="${remote}"][data-reason]:not([data-before-retry])`);
  await expect(fresh).toBeVisible();
  return fresh;
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
      // Unreadable (the page gone, the recorder missing) fails the test rather than reading as "none".
      const fromEvents = await page.evaluate(() => {
        const seen = (window as unknown as { __cspViolations?: string[] }).__cspViolations;
        if (!seen) throw new Error('the CSP violation recorder is not installed in this page');
        return seen;
      });
      return [...fromConsole, ...fromEvents];
    },
  };
}
