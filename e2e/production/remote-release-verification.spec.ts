import { expect, test, type Page } from '@playwright/test';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signIn, watch } from './support/browser';
import { makeTestKey, resignRelease, testReleaseKey, unsignRelease, type TestKey } from './support/releaseKey';
import { containerOf, exposedFiles, pinnedConfig, SHELL, startTopology, type Scenario, type Topology } from './support/topology';

// Signed remote releases (decisions/0117) in the production topology: the builds are signed with the suite's test
// key (support/globalSetup.ts), the registry pins its public key for the profile remote, and the shell runs only a
// release of profile that verifies. A tampered file sets a page global: that it stays undefined shows that none of
// the tampered code ran. The other remotes keep working on the same page.

const TAMPERED = '__gatehouseTampered';
const tamper = (file: string) => appendFileSync(file, `\n;window.${TAMPERED} = ${JSON.stringify(file)};\n`);

let otherTeam: TestKey;
let nextKey: TestKey;
test.beforeAll(async () => {
  [otherTeam, nextKey] = await Promise.all([makeTestKey(), makeTestKey()]);
});

/** Every `gatehouse:telemetry` event of the page, from its first script on. */
async function recordTelemetry(page: Page): Promise<() => Promise<Array<Record<string, unknown>>>> {
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { __telemetry: unknown[] }).__telemetry = seen;
    window.addEventListener('gatehouse:telemetry', (event) => seen.push((event as CustomEvent).detail));
  });
  return () => page.evaluate(() => (window as unknown as { __telemetry: Array<Record<string, unknown>> }).__telemetry);
}

async function openFromNavigation(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
}

const refusals: Array<{ name: string; breakIt: (dir: string) => void | Promise<void>; reason: string }> = [
  {
    name: 'one of its chunks was changed after signing',
    breakIt: (dir) => tamper(join(dir, exposedFiles(dir)[0]!)),
    reason: 'hash-mismatch',
  },
  {
    name: 'its remoteEntry.js was changed after signing',
    breakIt: (dir) => tamper(join(dir, containerOf(dir).entry)),
    reason: 'hash-mismatch',
  },
  {
    name: 'its manifest was changed by one byte after signing',
    breakIt: (dir) => {
      const file = join(dir, 'mf-manifest.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^\{/, '{ '));
    },
    reason: 'hash-mismatch',
  },
  {
    name: 'its release was signed by another key (its files changed with it)',
    breakIt: async (dir) => {
      tamper(join(dir, exposedFiles(dir)[0]!));
      await resignRelease(dir, otherTeam);
    },
    reason: 'unknown-key',
  },
  {
    name: 'its signature was removed',
    breakIt: (dir) => {
      tamper(join(dir, containerOf(dir).entry));
      unsignRelease(dir);
    },
    reason: 'missing-signature',
  },
];

for (const { name, breakIt, reason } of refusals) {
  test.describe(`a release of "profile" that does not verify: ${name}`, () => {
    let topology: Topology | undefined;
    let globalName = '';
    test.beforeAll(async () => {
      let broken = '';
      // breakIt may be async (a signature made with another key): the copy is broken before nginx serves it
      const pending: Array<Promise<void>> = [];
      const scenario: Scenario = {
        config: pinnedConfig([testReleaseKey().pinned]),
        remotes: {
          profile: (dir) => {
            broken = dir;
            globalName = containerOf(dir).globalName;
            const done = breakIt(dir);
            if (done) pending.push(done);
          },
        },
      };
      topology = await startTopology(scenario);
      await Promise.all(pending);
      expect(broken).not.toBe('');
    });
    test.afterAll(async () => {
      await topology?.stop();
    });

    test('its slot says so in plain words, none of its code runs, telemetry has the reason, the rest of the page works', async ({
      page,
    }) => {
      const telemetry = await recordTelemetry(page);
      await page.goto(`${SHELL}/`);
      await signIn(page, 'alice');
      await openFromNavigation(page, 'Profile');
      const slot = page.locator('[data-remote="profile"][data-reason="release-unverified"]');
      await expect(slot).toBeVisible();
      await expect(slot).toContainText('This release of Profile could not be verified, so it was not run. Its team has been told');
      expect(await page.evaluate((global) => (window as unknown as Record<string, unknown>)[global], TAMPERED)).toBeUndefined();
      if (reason !== 'hash-mismatch' || name.includes('manifest')) {
        // refused before the runtime read the manifest: not even the remote's container exists
        expect(await page.evaluate((global) => typeof (window as unknown as Record<string, unknown>)[global], globalName)).toBe(
          'undefined',
        );
      }
      await expect
        .poll(async () =>
          (await telemetry())
            .filter((event) => event['type'] === 'remoteReleaseRefused' && event['remote'] === 'profile')
            .map((event) => event['reason']),
        )
        .toContain(reason);

      // the other remotes, on the same page, and the session
      await openFromNavigation(page, 'Admin');
      await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
      await openFromNavigation(page, 'Reports');
      await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
      await expect(page.getByTestId('user-name')).toBeVisible();
      expect(await page.evaluate((global) => (window as unknown as Record<string, unknown>)[global], TAMPERED)).toBeUndefined();
    });
  });
}

test.describe('a release of "profile" that verifies', () => {
  let topology: Topology | undefined;
  test.afterEach(async () => {
    await topology?.stop();
    topology = undefined;
  });

  async function profileRuns(page: Page): Promise<void> {
    const telemetry = await recordTelemetry(page);
    await page.goto(`${SHELL}/`);
    await signIn(page, 'alice');
    await openFromNavigation(page, 'Profile');
    await expect(page.getByRole('heading', { level: 1, name: 'Profile', exact: true })).toBeVisible();
    await expect(page.locator('[data-remote="profile"][data-reason]')).toHaveCount(0);
    await expect(page.locator('[data-release="unsigned"]')).toHaveCount(0); // a production shell never marks one: it refuses it
    expect((await telemetry()).filter((event) => event['type'] === 'remoteReleaseRefused')).toEqual([]);
  }

  test('runs, every script and stylesheet of it loaded with its signed integrity', async ({ page }) => {
    topology = await startTopology({ config: pinnedConfig([testReleaseKey().pinned]) });
    const watched = await watch(page);
    const checked: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith('http://localhost:4001/') && ['script', 'stylesheet'].includes(request.resourceType()))
        checked.push(request.url());
    });
    await page.addInitScript(() => {
      // every script or stylesheet element of the profile origin that reaches the document, with its integrity
      const seen: string[] = [];
      (window as unknown as { __profileElements: string[] }).__profileElements = seen;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes) {
            const element = node as HTMLScriptElement & HTMLLinkElement;
            const url = element.src || element.href;
            if (typeof url === 'string' && url.startsWith('http://localhost:4001/'))
              seen.push(`${url} ${element.getAttribute('integrity') ?? 'none'} ${element.getAttribute('crossorigin') ?? 'none'}`);
          }
      }).observe(document, { childList: true, subtree: true });
    });
    await profileRuns(page);
    const elements = await page.evaluate(() => (window as unknown as { __profileElements: string[] }).__profileElements);
    expect(elements.length).toBeGreaterThan(0);
    for (const element of elements) expect(element).toMatch(/ sha384-[A-Za-z0-9+/]{64} anonymous$/);
    expect(checked.length).toBeGreaterThan(0);
    // mf-release.json and the scripts' CORS loads pass the shell's production CSP
    expect(await watched.cspViolations()).toEqual([]);
  });

  for (const signer of ['the current key', 'the next key'] as const) {
    test(`key rotation: the next key pinned beside the current one, a release signed with ${signer} runs`, async ({ page }) => {
      const pending: Array<Promise<void>> = [];
      topology = await startTopology({
        config: pinnedConfig([testReleaseKey().pinned, nextKey.pinned]),
        remotes: { profile: (dir) => void (signer === 'the next key' && pending.push(resignRelease(dir, nextKey))) },
      });
      await Promise.all(pending);
      await profileRuns(page);
    });
  }
});
