import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { retryAndFailAgain, signIn } from './support/browser';
import { buildRemote } from './support/remoteBuild';
import { REMOTE_ORIGINS, SHELL, startTopology, type Topology } from './support/topology';

// The profile team ships a build made against auth-lib 2.x, a major the shell does not provide.
// auth-lib is shared strictly, so only the profile slot fails — saying why, with Retry — while
// navigation, the other remotes and the session keep working.

let work: string;
let topology: Topology | undefined;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'gatehouse-auth-lib-2-'));
  const build = join(work, 'profile');
  await buildRemote('profile', join(work, 'webpack'), build, { sharedVersions: { '@gatehouse/auth-lib': '2.0.0' } });
  topology = await startTopology({ remotes: { profile: build } });
});
test.afterAll(async () => {
  await topology?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
}

test('only the profile slot fails, naming the incompatible auth-lib, with Retry; the rest works', async ({ page }) => {
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');

  await open(page, 'Profile');
  const slot = page.locator('[data-remote="profile"][data-reason]');
  await expect(slot).toHaveAttribute('data-reason', 'incompatible-auth-lib');
  await expect(slot.getByRole('heading', { name: 'Profile is unavailable' })).toBeVisible();
  await expect(slot).toContainText('@gatehouse/auth-lib');
  await expect(slot).toContainText('2.0.0');
  await expect(slot.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toBeVisible();

  // Retry fetches again and fails the same way, still inside the slot.
  const again = await retryAndFailAgain(page, 'profile', REMOTE_ORIGINS.profile);
  await expect(again).toHaveAttribute('data-reason', 'incompatible-auth-lib');

  // Navigation and the other remotes are untouched, and the session is kept.
  await open(page, 'Admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  await open(page, 'Reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.locator('[data-reason]')).toHaveCount(0);
  await open(page, 'Home');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toBeVisible();
});
