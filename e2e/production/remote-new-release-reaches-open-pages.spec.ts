import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { signIn } from './support/browser';
import { buildRemote, ReleaseFolders } from './support/remoteBuild';
import { testReleaseKey } from './support/releaseKey';
import { exposedFiles, IDENTITY_PROVIDER, pinnedConfig, REMOTE_ORIGINS, SHELL, startTopology, type Topology } from './support/topology';

// Independent deploys reach open pages (decisions/0046): the profile team deploys release 2 (its own build,
// release 1's hashed chunks gone from the server, as with webpack's `clean: true` or a CDN purge) while a
// visitor has the shell open. The next navigation into Profile shows release 2 — no reload, no sign-in —
// and with Profile on screen the shell offers the update instead. Each navigation into the remote costs
// exactly one manifest request (a 304 when nothing changed), and a remote the visitor may not open costs none.
// The registry pins the suite's release key for profile (decisions/0117): release 2, built and signed with that key
// (GATEHOUSE_RELEASE_KEY_FILE, set by globalSetup), verifies and is picked up like any other.

const RELEASE_NOTE = 'Release 2 of the profile remote';
const MANIFEST = `${REMOTE_ORIGINS.profile}/mf-manifest.json`;

let releases: ReleaseFolders;
let topology: Topology | undefined;

test.beforeAll(async () => {
  test.setTimeout(240_000); // one production build of the remote, on a loaded machine
  releases = new ReleaseFolders('profile', 'gatehouse-new-release-');
  await buildRemote('profile', join(releases.work, 'webpack'), releases.dir('2'), {
    edits: { 'src/App.tsx': [['>Profile</h1>', `>Profile</h1><p data-testid="release-note">${RELEASE_NOTE}</p>`]] },
  });
  releases.deploy('1');
  topology = await startTopology({ config: pinnedConfig([testReleaseKey().pinned]), remotes: { profile: releases.live } });
});
test.afterAll(async () => {
  await topology?.stop();
  releases?.remove(); // (unset when beforeAll failed before it)
});

function deploy(release: '1' | '2' | 'empty'): void {
  releases.deploy(release);
}

/**
 * What the page asks the network for, from now on: the status of each profile manifest response as it came
 * over the wire (Chromium hands `fetch` the cached 200 after a 304, so the status is read from the DevTools
 * protocol's raw response), requests for the provider's sign-in page, and every origin asked.
 */
async function watchRequests(page: Page) {
  const seen = { signInPages: 0, origins: new Set<string>() };
  page.on('request', (request) => {
    seen.origins.add(new URL(request.url()).origin);
    if (request.url().startsWith(`${IDENTITY_PROVIDER}/realms/`) && request.url().includes('/protocol/openid-connect/auth')) {
      seen.signInPages += 1;
    }
  });
  // The protocol may report a response's raw status before or after its request: both are kept by id.
  const cdp = await page.context().newCDPSession(page);
  const manifestRequests: string[] = [];
  const statuses = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url === MANIFEST && !manifestRequests.includes(event.requestId)) manifestRequests.push(event.requestId);
  });
  cdp.on('Network.responseReceivedExtraInfo', (event) => statuses.set(event.requestId, event.statusCode));
  await cdp.send('Network.enable');
  return {
    origins: seen.origins,
    signInPages: () => seen.signInPages,
    /** the manifest requests in order, each as its status on the wire (0 while it has none yet) */
    manifest: () => manifestRequests.map((id) => statuses.get(id) ?? 0),
  };
}

async function openFromNavigation(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
}

/** A mark on the page's window: it survives in-app navigation and is gone after any reload. */
async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { gatehouseMark: string }).gatehouseMark = 'still this page'));
}
const windowMark = (page: Page) => page.evaluate(() => (window as unknown as { gatehouseMark?: string }).gatehouseMark ?? 'reloaded');

test('the next navigation into a remote shows its new release, without a reload or a sign-in; one manifest request each, 304 when unchanged', async ({
  page,
  request,
}) => {
  deploy('1');
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  const seen = await watchRequests(page);
  await markWindow(page);

  await openFromNavigation(page, 'Profile');
  await expect.poll(() => seen.manifest()).toEqual([200]);
  await openFromNavigation(page, 'Home');
  await openFromNavigation(page, 'Profile');
  await expect(page.getByTestId('user-name')).toBeVisible();
  await expect.poll(() => seen.manifest()).toEqual([200, 304]); // unchanged: the browser's validator, a 304, the same release
  await expect(page.getByTestId('release-note')).toHaveCount(0);

  await openFromNavigation(page, 'Home');
  deploy('2');
  const releaseOneChunk = exposedFiles(releases.dir('1'))[0]!;
  expect((await request.get(`${REMOTE_ORIGINS.profile}/${releaseOneChunk}`)).status()).toBe(404);

  await openFromNavigation(page, 'Profile');
  await expect(page.getByTestId('release-note')).toHaveText(RELEASE_NOTE);
  await expect(page.getByTestId('user-name')).toBeVisible();
  await expect.poll(() => seen.manifest()).toEqual([200, 304, 200]);
  expect(await windowMark(page)).toBe('still this page');
  expect(seen.signInPages()).toBe(0);
});

test('with the remote on screen the shell offers the new release, and Update shows it in place', async ({ page }) => {
  deploy('1');
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  const seen = await watchRequests(page);
  await openFromNavigation(page, 'Profile');
  await markWindow(page);

  deploy('2');
  // A navigation inside the remote's route (here: its link again) looks for a new release…
  await openFromNavigation(page, 'Profile');
  const offer = page.getByTestId('update-offer');
  await expect(offer).toHaveAttribute('aria-live', 'polite');
  await expect(offer).toContainText('A new version of Profile is available.');
  // …and the release on screen keeps running until the visitor chooses.
  await expect(page.getByTestId('release-note')).toHaveCount(0);
  await expect.poll(() => seen.manifest()).toEqual([200, 200]);

  const update = offer.getByRole('button', { name: 'Update' });
  await update.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('release-note')).toHaveText(RELEASE_NOTE);
  await expect(offer.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile', exact: true })).toBeFocused();
  await expect.poll(() => seen.manifest()).toEqual([200, 200]); // Update used the manifest the navigation read
  expect(await windowMark(page)).toBe('still this page');
  expect(seen.signInPages()).toBe(0);
});

test('a visitor without the role fetches nothing of the remote on the way to Access denied', async ({ page }) => {
  await page.goto(`${SHELL}/`);
  await signIn(page, 'bob');
  const seen = await watchRequests(page);
  // an in-app navigation (bob's menu has no Reports link)
  await page.evaluate(() => {
    window.history.pushState({}, '', '/reports');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { level: 1, name: 'Access denied', exact: true })).toBeVisible();
  await openFromNavigation(page, 'Profile');
  expect(seen.origins.has(REMOTE_ORIGINS.reports)).toBe(false);
  await expect.poll(() => seen.manifest()).toEqual([200]);
});
