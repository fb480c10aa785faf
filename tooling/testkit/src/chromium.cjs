'use strict';
// How every browser test and the benchmark find and launch Chromium: one place, one environment
// variable (CHROMIUM_PATH). Plain Node; Playwright's own browser is looked up only if playwright-core
// is installed.

const { existsSync } = require('node:fs');
const { isDebian, isExecutable, isRoot, onPath } = require('./systemTools.cjs');

/** The system's usual Chromium locations, in the order they are tried (after CHROMIUM_PATH). */
const SYSTEM_CANDIDATES = ['/usr/bin/chromium', 'chromium', 'chromium-browser'];

/**
 * Headless, and without the background services whose connections a closed network refuses
 * (component updates, sync, QUIC), so a test's network log holds only what the page itself does.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * @typedef {object} FoundChromium
 * @property {string} path the executable
 * @property {'CHROMIUM_PATH' | 'system' | 'playwright'} source where it was found
 */

/**
 * The Chromium to drive: `CHROMIUM_PATH` if set (it must exist), else the system's (`/usr/bin/chromium`,
 * `chromium` or `chromium-browser` on PATH), else the browser `npx playwright install chromium` put in
 * Playwright's cache. Null when there is none.
 *
 * @returns {FoundChromium | null}
 */
function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv))
      throw new Error(`CHROMIUM_PATH is ${fromEnv}, which is not an executable file. Point it at a Chromium build, or unset it.`);
    return { path: fromEnv, source: 'CHROMIUM_PATH' };
  }
  for (const candidate of SYSTEM_CANDIDATES) {
    const path = candidate.startsWith('/') ? (isExecutable(candidate) ? candidate : null) : onPath(candidate);
    if (path) return { path, source: 'system' };
  }
  const playwrights = playwrightChromium();
  return playwrights ? { path: playwrights, source: 'playwright' } : null;
}

/** Playwright's downloaded Chromium, if playwright-core is installed and its browser was downloaded. */
function playwrightChromium() {
  try {
    /** @type {{ chromium: { executablePath(): string } }} */
    const playwright = require('playwright-core');
    const path = playwright.chromium.executablePath();
    return path && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** The command that installs a Chromium on this machine. */
function chromiumInstallCommand() {
  return isDebian() ? `${isRoot() ? '' : 'sudo '}apt-get install -y chromium` : 'npx playwright install chromium';
}

/** The message for "no Chromium here": what is missing and the command that fixes it. */
function noChromiumMessage() {
  return `No Chromium found: CHROMIUM_PATH is not set, there is no chromium on PATH or in /usr/bin, and Playwright's own browser is not installed.
Install one with \`${chromiumInstallCommand()}\`, or set CHROMIUM_PATH to a Chromium executable.`;
}

/**
 * Playwright's launch options for every browser test (`use: { launchOptions: chromiumLaunchOptions() }`)
 * and the benchmark. Throws, saying how to install one, when no Chromium is found.
 *
 * @returns {{ executablePath: string, args: string[] }}
 */
function chromiumLaunchOptions() {
  const found = findChromium();
  if (!found) throw new Error(noChromiumMessage());
  return { executablePath: found.path, args: [...CHROMIUM_ARGS] };
}

module.exports = { CHROMIUM_ARGS, findChromium, chromiumInstallCommand, noChromiumMessage, chromiumLaunchOptions };
