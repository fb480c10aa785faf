import { expect, test, type APIRequestContext } from '@playwright/test';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { signIn } from './support/browser';
import { REPO_ROOT } from './support/previewProcess';
import { buildRemote, hashTree, ReleaseFolders } from './support/remoteBuild';
import { SHELL, startTopology, type Topology } from './support/topology';

// Independent deploys: the profile team rebuilds its remote with a visible change and redeploys it
// while the shell keeps running from its unchanged files. A reload shows the new remote, and the
// shell's files are byte-for-byte the same. The deploy is a symlink swap of the folder nginx serves
// (what release directories on a server do); nothing is restarted.

const RELEASE_NOTE = 'Release 2 of the profile remote';

let releases: ReleaseFolders;
let topology: Topology | undefined;

test.beforeAll(async () => {
  releases = new ReleaseFolders('profile', 'gatehouse-redeploy-');
  releases.deploy('1');
  topology = await startTopology({ remotes: { profile: releases.live } });
});
test.afterAll(async () => {
  await topology?.stop();
  releases?.remove(); // (unset when beforeAll failed before it)
});

/** sha256 of what nginx serves for every file of the shell's build (and for `/`), by path. */
async function servedShell(request: APIRequestContext): Promise<Record<string, string>> {
  const paths = ['', ...Object.keys(hashTree(join(REPO_ROOT, 'shell/dist')))];
  const served: Record<string, string> = {};
  for (const path of paths) {
    const response = await request.get(`${SHELL}/${path}`);
    expect(response.status(), `/${path}`).toBe(200);
    served[`/${path}`] = createHash('sha256')
      .update(await response.body())
      .digest('hex');
  }
  return served;
}

test('a remote rebuilt and redeployed alone shows after a reload; the shell is byte-for-byte the same', async ({ page, request }) => {
  const profileRepoBuild = hashTree(join(REPO_ROOT, 'remotes/profile/dist'));
  const servedShellBefore = await servedShell(request);
  expect(Object.keys(servedShellBefore).length).toBeGreaterThan(3);

  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByText(RELEASE_NOTE)).toHaveCount(0);

  // The profile team's release 2: built alone, with its own webpack config, into a new folder.
  await buildRemote('profile', join(releases.work, 'webpack'), releases.dir('2'), {
    edits: { 'src/App.tsx': [['>Profile</h1>', `>Profile</h1><p data-testid="release-note">${RELEASE_NOTE}</p>`]] },
  });
  // Deploy: point the served folder at the new release in one step (rename is atomic).
  releases.deploy('2');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByTestId('release-note')).toHaveText(RELEASE_NOTE);
  await expect(page.getByTestId('user-name')).toBeVisible();

  // Every file the shell's origin serves is the same, byte for byte.
  expect(await servedShell(request)).toEqual(servedShellBefore);
  // The repository's own build of the remote was not touched either.
  expect(hashTree(join(REPO_ROOT, 'remotes/profile/dist'))).toEqual(profileRepoBuild);
});
