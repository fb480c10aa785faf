import type { LaunchOptions } from '@playwright/test';

/**
 * How every browser test launches Chromium: Debian's build (browser downloads are blocked), headless,
 * and without the background services whose connections this machine's closed network refuses.
 * `CHROMIUM_PATH` points at another build.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
