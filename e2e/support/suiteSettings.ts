import type { PlaywrightTestConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../../playwright.chromium';

/**
 * What every suite of e2e/ shares: one test at a time (a suite holds fixed ports, one nginx or one cluster, and its
 * specs share the system it starts), no `.only` left in, no retry (a test that passes on a second try is a bug to
 * fix, not to hide), the list reporter.
 */
export const ONE_AT_A_TIME = {
  fullyParallel: false,
  forbidOnly: true,
  workers: 1,
  retries: 0,
  reporter: [['list']],
} satisfies PlaywrightTestConfig;

/** Chromium as every browser test launches it (playwright.chromium.ts), a trace kept for a failed test. */
export const IN_CHROMIUM = {
  browserName: 'chromium',
  trace: 'retain-on-failure',
  launchOptions: chromiumLaunchOptions,
} satisfies PlaywrightTestConfig['use'];

/** A suite of e2e/ in a folder of its own (e.g. `production`), set up by its `support/globalSetup.ts`, one test at a time. */
export function suiteIn(folder: string) {
  return { testDir: `./${folder}`, globalSetup: `./${folder}/support/globalSetup.ts`, ...ONE_AT_A_TIME } satisfies PlaywrightTestConfig;
}
