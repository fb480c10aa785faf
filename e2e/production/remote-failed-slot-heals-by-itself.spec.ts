import { expect, test, type Page } from '@playwright/test';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { signIn } from './support/browser';
import { containerOf, REMOTE_ORIGINS, SHELL, startTopology, type Topology } from './support/topology';
import { ReleaseFolders } from './support/remoteBuild';

// A failed slot heals by itself (decisions/0046): once the profile team has fixed its deploy, the visitor's
// next navigation into Profile — or the browser coming back online — shows it, without Retry. A remote
// that stays down is not stormed: a burst of "online" and "tab visible" events costs one request.
// The deploys are symlink swaps of the folder nginx serves; an empty release answers 404 for everything.

const MANIFEST = `${REMOTE_ORIGINS.profile}/mf-manifest.json`;

let releases: ReleaseFolders;
let topology: Topology | undefined;

test.beforeAll(async () => {
  releases = new ReleaseFolders('profile', 'gatehouse-heals-');
  // a deploy caught half-way: the manifest is there, the remote entry it names is not
  cpSync(releases.dir('1'), releases.dir('half'), { recursive: true });
  rmSync(join(releases.dir('half'), containerOf(releases.dir('1')).entry));
  releases.deploy('empty');
  topology = await startTopology({ remotes: { profile: releases.live } });
});
test.afterAll(async () => {
  await topology?.stop();
  releases?.remove(); // (unset when beforeAll failed before it)
});

function deploy(release: '1' | 'half' | 'empty'): void {
  releases.deploy(release);
}

/** Signs in, opens Profile from the menu while its deploy is broken, and counts the manifest requests from then on. */
async function failedProfile(page: Page, broken: 'half' | 'empty' = 'empty') {
  deploy(broken);
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  const manifestRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url() === MANIFEST) manifestRequests.push(request.url());
  });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  const failed = page.locator(`[data-remote="profile"][data-reason="${broken === 'half' ? 'code-unavailable' : 'manifest-missing'}"]`);
  await expect(failed).toBeVisible();
  expect(manifestRequests).toHaveLength(1);
  return { failed, manifestRequests };
}

test('the next navigation into a failed slot loads the fixed remote, without Retry', async ({ page }) => {
  // (before decisions/0046 this navigation asked for no manifest: the runtime answered from the one it had kept)
  const { manifestRequests } = await failedProfile(page, 'half');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home', exact: true })).toBeVisible();
  deploy('1');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile', exact: true })).toBeVisible();
  await expect(page.getByTestId('user-name')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect.poll(() => manifestRequests.length).toBe(2);
});

test('a failed slot on screen loads the fixed remote when the browser comes back online', async ({ page }) => {
  const { manifestRequests } = await failedProfile(page);
  deploy('1');
  // The event a browser fires when its connection returns. (Playwright's emulated offline mode changes
  // navigator.onLine in this Chromium but fires no "online" when it ends, so the test fires it.)
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByRole('heading', { level: 1, name: 'Profile', exact: true })).toBeVisible();
  await expect.poll(() => manifestRequests.length).toBe(2);
});

test('a remote that stays down is asked once per burst of online and visible events, not once per event', async ({ page }) => {
  const { failed, manifestRequests } = await failedProfile(page);
  for (const round of [1, 2]) {
    // the failure shown now is marked, so the attempt's own failure cannot pass for it
    await failed.evaluate((element, mark) => element.setAttribute('data-round', mark), String(round));
    await page.evaluate(() => {
      for (let i = 0; i < 10; i += 1) {
        window.dispatchEvent(new Event('online'));
        document.dispatchEvent(new Event('visibilitychange'));
      }
    });
    await expect(page.locator('[data-remote="profile"][data-reason="manifest-missing"]:not([data-round])')).toBeVisible();
    expect(manifestRequests).toHaveLength(1 + round);
  }
  // Retry stays for the visitor who wants it now: it does not wait for the backoff.
  deploy('1');
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile', exact: true })).toBeVisible();
  expect(manifestRequests).toHaveLength(4);
});
