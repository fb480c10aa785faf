import type { LaunchOptions } from '@playwright/test';
import { chromiumLaunchOptions as launchOptions } from '@gatehouse/testkit/chromium';

/**
 * How every browser test launches Chromium (tooling/testkit: `CHROMIUM_PATH`, else the system's, else
 * Playwright's own), headless and without the background services a closed network refuses.
 */
export const chromiumLaunchOptions: LaunchOptions = launchOptions();
