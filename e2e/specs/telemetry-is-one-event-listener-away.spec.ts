import { expect, test, type Page } from '@playwright/test';
import { openSignedIn, openWithSession } from '../support/flows';

/** Subscribes the way shell/README.md tells a page to, before any of the shell's scripts run. */
async function recordTelemetry(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { telemetry: unknown[] }).telemetry = seen;
    window.addEventListener('gatehouse:telemetry', (e) => seen.push((e as CustomEvent).detail));
  });
}

interface Seen {
  type: string;
  remote?: string;
  phase?: string;
  ok?: boolean;
  durationMs?: unknown;
  reason?: string;
}

async function telemetry(page: Page): Promise<Seen[]> {
  return page.evaluate(() => (window as unknown as { telemetry: Seen[] }).telemetry);
}

test('a page sees the sign-in and each phase of the profile remote, never a token', async ({ page }) => {
  await recordTelemetry(page);
  await openSignedIn(page, 'carol', '/profile');
  await expect(page.getByTestId('username')).toHaveText('carol');

  await expect.poll(async () => (await telemetry(page)).filter((e) => e.remote === 'profile' && e.phase === 'render').length).toBe(1);
  const events = await telemetry(page);
  expect(events.filter((e) => e.type === 'signedIn')).toHaveLength(1);
  const phases = events.filter((e) => e.type === 'remotePhase' && e.remote === 'profile');
  expect(phases.map((e) => e.phase)).toEqual(['manifest', 'entry', 'code', 'render']);
  for (const phase of phases) {
    expect(phase.ok).toBe(true);
    expect(typeof phase.durationMs).toBe('number');
  }
  const json = JSON.stringify(events);
  expect(json).not.toContain('eyJ');
});

test('a manifest that cannot be fetched is a failed manifest phase with its code', async ({ page }) => {
  await recordTelemetry(page);
  await page.route('http://localhost:3003/mf-manifest.json', (route) => route.abort());
  await openWithSession(page, 'alice', '/reports');

  await expect
    .poll(async () => (await telemetry(page)).filter((e) => e.remote === 'reports' && e.ok === false))
    .toEqual([expect.objectContaining({ type: 'remotePhase', remote: 'reports', phase: 'manifest', ok: false, reason: 'unreachable' })]);
});
