import { expect, test, type Page } from '@playwright/test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { retryAndFailAgain, signIn } from './support/browser';
import { containerOf, exposedFiles, REMOTE_ORIGINS, SHELL, startTopology, type Scenario, type Topology } from './support/topology';

// One remote broken in production: only its slot fails, says why and offers Retry; navigation, the
// other remotes and the session keep working.

/** A remote container that loads fine but whose App throws while rendering. */
function throwingContainer(buildDir: string): void {
  const { globalName, entry } = containerOf(buildDir);
  writeFileSync(
    join(buildDir, entry),
    `var ${globalName} = {
  init: function () {},
  get: function () {
    return Promise.resolve(function () {
      return { __esModule: true, default: function BrokenApp() { throw new Error('${globalName}: this build throws on render'); } };
    });
  }
};
`,
  );
}

const cases: Array<{ name: string; scenario: Scenario; reasons: string[] }> = [
  { name: 'its server is down', scenario: { remotes: { profile: null } }, reasons: ['unreachable'] },
  {
    name: 'its manifest is a 404',
    scenario: { remotes: { profile: (dir) => rmSync(join(dir, 'mf-manifest.json')) } },
    reasons: ['manifest-missing'],
  },
  {
    name: 'its code has a syntax error',
    scenario: {
      remotes: {
        profile: (dir) => exposedFiles(dir).forEach((file) => writeFileSync(join(dir, file), 'export default {{{ not javascript')),
      },
    },
    reasons: ['code-unavailable', 'code-failed'],
  },
  { name: 'its code throws on render', scenario: { remotes: { profile: throwingContainer } }, reasons: ['code-failed'] },
];

async function openFromNavigation(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
}

for (const { name, scenario, reasons } of cases) {
  test.describe(`remote "profile": ${name}`, () => {
    let topology: Topology | undefined;
    test.beforeAll(async () => {
      topology = await startTopology(scenario);
    });
    test.afterAll(async () => {
      await topology?.stop();
    });

    test('only its slot fails, with the reason and Retry; the rest works', async ({ page }) => {
      await page.goto(`${SHELL}/`);
      await signIn(page, 'alice');

      await openFromNavigation(page, 'Profile');
      const slot = page.locator('[data-remote="profile"][data-reason]');
      await expect(slot).toBeVisible();
      expect(reasons).toContain(await slot.getAttribute('data-reason'));
      await expect(slot.getByRole('heading', { name: 'Profile is unavailable' })).toBeVisible();
      await expect(slot.getByRole('button', { name: 'Retry' })).toBeVisible();
      // The page around the slot is intact.
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByTestId('user-name')).toBeVisible();

      // Retry while still broken asks the remote again and fails again, in the slot only.
      const again = await retryAndFailAgain(page, 'profile', REMOTE_ORIGINS.profile);
      expect(reasons).toContain(await again.getAttribute('data-reason'));

      // The other remotes and navigation still work, and the session is kept.
      await openFromNavigation(page, 'Admin');
      await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
      await openFromNavigation(page, 'Reports');
      await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
      await openFromNavigation(page, 'Home');
      await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
      await expect(page.getByTestId('user-name')).toBeVisible();
    });

    if (name === 'its server is down') {
      test('Retry loads the remote once its server is back, without signing in again', async ({ page }) => {
        await page.goto(`${SHELL}/`);
        await signIn(page, 'alice');
        await openFromNavigation(page, 'Profile');
        const slot = page.locator('[data-remote="profile"][data-reason="unreachable"]');
        await expect(slot).toBeVisible();

        // The profile team redeploys: the full topology comes back (nginx restarts, the page stays).
        await topology?.stop();
        topology = await startTopology();
        await slot.getByRole('button', { name: 'Retry' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
        await expect(page.getByTestId('user-name')).toBeVisible();
      });
    }
  });
}
