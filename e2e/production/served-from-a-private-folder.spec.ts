import { expect, test } from '@playwright/test';
import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './support/previewProcess';
import { REMOTE_ORIGINS, SHELL, startTopology, type Topology } from './support/topology';

// A checkout in a private folder (mode 0700: `git clone` into `mktemp -d`, or anywhere under /root)
// is served as it is. Started by root, nginx would drop its workers to `nobody`, who cannot read there;
// the preview keeps them root in that case only (decisions/0012). As any other user the workers are
// that user, who can read their own folder. Either way every file answers 200.

let work: string;
let topology: Topology | undefined;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'gatehouse-private-'));
  expect(statSync(work).mode & 0o777).toBe(0o700);
  cpSync(join(REPO_ROOT, 'remotes/profile/dist'), join(work, 'profile'), { recursive: true });
  topology = await startTopology({ remotes: { profile: join(work, 'profile') } });
});
test.afterAll(async () => {
  await topology?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('a remote build in a 0700 folder is served, and so is the shell', async ({ request }) => {
  for (const url of [
    `${REMOTE_ORIGINS.profile}/mf-manifest.json`,
    `${REMOTE_ORIGINS.profile}/remoteEntry.js`,
    `${SHELL}/`,
    `${SHELL}/config.json`,
  ]) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
  }
});
