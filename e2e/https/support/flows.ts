import { fillLoginForm } from '@gatehouse/testkit/login-form';
import type { Page, TestInfo } from '@playwright/test';
import { expect, heading } from './fixtures';
import type { HttpsTopology } from './topology';
import { visitorUsing } from '../../support/visitor';

/** Opens `path` of the shell signed out, signs in as alice at the provider, and waits until the page is back. */
export async function openSignedIn(page: Page, topology: HttpsTopology, path: string, title: string): Promise<void> {
  await page.goto(`${topology.shell}${path}`);
  // The provider's base URL may have a path (the proxied topology: the shell's origin + /auth).
  await page.waitForURL((url) => url.href.startsWith(`${topology.identityProvider}/realms/`));
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
  // the visitor uses the page: the shell's server check runs every sessionWatchSeconds (decisions/0090)
  const stopUsing = visitorUsing(page);
  await endSession();
  const endedAt = Date.now();
  await expect(page.getByTestId('session-notice'))
    .toHaveText(/^Your session ended/, { timeout: boundMs })
    .finally(stopUsing);
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

/** Records the shell's telemetry (shell/README.md: one `gatehouse:telemetry` listener) from before its scripts run. */
export async function recordTelemetry(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { telemetry: unknown[] }).telemetry = seen;
    window.addEventListener('gatehouse:telemetry', (e) => seen.push((e as CustomEvent).detail));
  });
}

/**
 * How the session is watched now: `frame` (the provider's login-status frame), `refresh` (auth-lib asks the
 * provider itself) or `none` — the last `sessionWatchChanged` event, or `frame`, the snapshot's initial value,
 * while none was emitted (auth-lib announces changes only). Fails when the recorder is missing.
 */
export async function sessionWatch(page: Page): Promise<string> {
  const events = await page.evaluate(() => {
    const seen = (window as unknown as { telemetry?: Array<{ type: string; watch?: string }> }).telemetry;
    if (!seen) throw new Error('the telemetry recorder is not installed in this page (recordTelemetry before goto)');
    return seen;
  });
  const changes = events.filter((event) => event.type === 'sessionWatchChanged');
  if (changes.length === 0) return 'frame';
  const last = changes.at(-1)?.watch;
  if (typeof last !== 'string') throw new Error(`a sessionWatchChanged event without a watch: ${JSON.stringify(changes)}`);
  return last;
}
