import { fillLoginForm } from '@gatehouse/testkit/login-form';
import type { Page, TestInfo } from '@playwright/test';
import { expect, heading } from './fixtures';
import type { HttpsTopology } from './topology';

/** Opens `path` of the shell signed out, signs in as alice at the provider, and waits until the page is back. */
export async function openSignedIn(page: Page, topology: HttpsTopology, path: string, title: string): Promise<void> {
  await page.goto(`${topology.shell}${path}`);
  await page.waitForURL((url) => url.origin === topology.identityProvider);
  await fillLoginForm(page, 'alice');
  await expect(page).toHaveURL(`${topology.shell}${path}`);
  await expect(heading(page)).toHaveText(title);
  await expect(page.getByTestId('user-name')).toHaveText('Alice Anders');
}

/**
 * Ends alice's session at the provider (`endSession`) and measures how long the idle page takes to show the
 * signed-out notice. Records the figure on the test (annotation "measured") for deploy/README.md's table.
 */
export async function msUntilSessionEndIsNoticed(
  page: Page,
  endSession: () => Promise<void>,
  boundMs: number,
  testInfo: TestInfo,
): Promise<number> {
  await endSession();
  const endedAt = Date.now();
  await expect(page.getByTestId('session-notice')).toHaveText(/session ended at the identity provider/, { timeout: boundMs });
  const delayMs = Date.now() - endedAt;
  testInfo.annotations.push({ type: 'measured', description: `session end noticed after ${delayMs} ms (bound ${boundMs} ms)` });
  process.stdout.write(`[${testInfo.project.name}] session end noticed after ${delayMs} ms (bound ${boundMs} ms)\n`);
  expect(delayMs).toBeLessThan(boundMs);
  await expect(page.getByTestId('user-name')).toHaveCount(0);
  return delayMs;
}

/**
 * Records every document the page's top level loads (a redirect or reload the visitor would see); the
 * router's own pushState navigations load none.
 */
export function topLevelDocumentLoads(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) seen.push(request.url());
  });
  return seen;
}
