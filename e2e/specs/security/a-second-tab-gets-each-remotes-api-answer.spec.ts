import { expect, test, type Page } from '@playwright/test';

import { openWithSession, stepUpAtProvider } from '../../support/flows';
import { USERS } from '../../support/system';

// A second tab opened on a remote gets its API's answer. The leading tab holds each API's token; the new tab
// asks it, and the leading tab answers from its cache by posting the token (before, it resolved only its own waiters
// and the new tab waited 10 s and failed, again and again). Each API token is bound to the browser's DPoP key, which
// The tabs share through IndexedDB, so the new tab can prove possession of it.

async function apiAnswer(page: Page, remote: string): Promise<void> {
  await expect(page.locator(`[data-remote="${remote}"]`).getByTestId('api-answer')).toHaveText('Signed in as alice', { timeout: 15_000 });
}

test('a second tab opened on each remote gets its API answer, with the token bound to the same key @idp', async ({ page, context }) => {
  await openWithSession(page, 'alice', '/profile');
  await apiAnswer(page, 'profile');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Reports' }).click();
  await apiAnswer(page, 'reports');
  await nav.getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await stepUpAtProvider(page, 'alice');
  await apiAnswer(page, 'admin');

  for (const [remote, path] of [
    ['profile', '/profile'],
    ['reports', '/reports'],
    ['admin', '/admin'],
  ] as const) {
    const second = await context.newPage();
    const schemes: string[] = [];
    second.on('request', (request) => {
      if (new URL(request.url()).origin === 'http://localhost:3010') schemes.push(request.headers().authorization?.split(' ')[0] ?? 'none');
    });
    await second.goto(path);
    await expect(second.getByTestId('user-name')).toHaveText(USERS.alice.name);
    await apiAnswer(second, remote);
    expect(schemes.length, `${remote}: the second tab called its API`).toBeGreaterThan(0);
    expect(new Set(schemes), `${remote}: every call with a DPoP-bound token`).toEqual(new Set(['DPoP']));
    await second.close();
  }
});
