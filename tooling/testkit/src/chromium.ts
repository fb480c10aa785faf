// How every browser test and the benchmark find and launch Chromium: one place, one environment
// variable (CHROMIUM_PATH). Plain Node; Playwright's own browser is looked up only if playwright-core
// is installed.
//
// Two builds of Debian's Chromium (one source package, one version), decisions/0104:
// - the headless shell (`chromium-headless-shell`, the build Playwright itself drives for headless tests): Blink, V8
//   and the network stack without the browser's own layer. A page costs about half the CPU. The browser tests'
//   default.
// - the browser (`chromium`): for what only the browser has, its profile's settings (`Default/Preferences`: the
//   third-party-cookie mode the HTTPS suite and the cross-site specs set), and for the benchmark, whose keys were
//   measured in it. The headless shell ignores those settings.

import { existsSync } from 'node:fs';
import { isDebian, isExecutable, isRoot, onPath } from './systemTools';

/** Where each build is looked for, in order (after CHROMIUM_PATH): absolute paths, then names on PATH. */
const SYSTEM_CANDIDATES = {
  'headless-shell': ['/usr/bin/chromium-headless-shell', 'chromium-headless-shell'],
  browser: ['/usr/bin/chromium', 'chromium', 'chromium-browser'],
};

/** The Debian package of each build. */
const DEBIAN_PACKAGES = { 'headless-shell': 'chromium-headless-shell', browser: 'chromium' };

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

export type ChromiumBuild = 'headless-shell' | 'browser';

export interface FoundChromium {
  /** the executable */
  path: string;
  /** where it was found */
  source: 'CHROMIUM_PATH' | 'system' | 'playwright';
  /** which build it is ('unknown' for a CHROMIUM_PATH) */
  build: ChromiumBuild | 'unknown';
}

export interface FindOptions {
  /**
   * `page` (default): a page engine, the headless shell if installed, else the
   * browser; `browser`: the browser itself (its profile's settings), never the headless shell
   */
  needs?: 'page' | 'browser';
  /** where CHROMIUM_PATH and PATH are read (default: this process's) */
  env?: NodeJS.ProcessEnv;
  /** where each build is looked for (tests) */
  candidates?: Partial<Record<ChromiumBuild, string[]>>;
  /** whether Playwright's downloaded browser may be used (default: true) */
  playwright?: boolean;
}

/**
 * The Chromium to drive: `CHROMIUM_PATH` if set (it must exist), else the system's headless shell
 * (`/usr/bin/chromium-headless-shell` or on PATH) unless `needs: 'browser'`, else the system's browser
 * (`/usr/bin/chromium`, `chromium` or `chromium-browser` on PATH), else the browser `npx playwright install
 * chromium` put in Playwright's cache. Null when there is none.
 */
function findChromium({
  needs = 'page',
  env = process.env,
  candidates = SYSTEM_CANDIDATES,
  playwright = true,
}: FindOptions = {}): FoundChromium | null {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv))
      throw new Error(`CHROMIUM_PATH is ${fromEnv}, which is not an executable file. Point it at a Chromium build, or unset it.`);
    return { path: fromEnv, source: 'CHROMIUM_PATH', build: 'unknown' };
  }
  const builds: ChromiumBuild[] = needs === 'browser' ? ['browser'] : ['headless-shell', 'browser'];
  for (const build of builds) {
    for (const candidate of candidates[build] ?? []) {
      const path = candidate.startsWith('/') ? (isExecutable(candidate) ? candidate : null) : onPath(candidate, env.PATH ?? '');
      if (path) return { path, source: 'system', build };
    }
  }
  const playwrights = playwright ? playwrightChromium() : null;
  return playwrights ? { path: playwrights, source: 'playwright', build: 'browser' } : null;
}

/** Playwright's downloaded Chromium, if playwright-core is installed and its browser was downloaded. */
function playwrightChromium() {
  try {
    // required where it is needed, and only if it is installed (findChromium is synchronous)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const playwright: { chromium: { executablePath(): string } } = require('playwright-core');
    const path = playwright.chromium.executablePath();
    return path && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/**
 * The command that installs Chromium on this machine: on Debian both builds (the browser tests run in the headless
 * shell, the HTTPS suite in the browser).
 */
function chromiumInstallCommand() {
  return isDebian()
    ? `${isRoot() ? '' : 'sudo '}apt-get install -y ${DEBIAN_PACKAGES.browser} ${DEBIAN_PACKAGES['headless-shell']}`
    : 'npx playwright install chromium';
}

/**
 * The message for "no Chromium here": what is missing and the command that fixes it.
 *
 * @param needs as findChromium's
 */
function noChromiumMessage(needs: 'page' | 'browser' = 'page') {
  const what =
    needs === 'browser'
      ? "No Chromium browser found (the headless shell alone does not do: the HTTPS suite sets the browser profile's third-party-cookie mode)"
      : 'No Chromium found';
  return `${what}: CHROMIUM_PATH is not set, there is no chromium on PATH or in /usr/bin, and Playwright's own browser is not installed.
Install it with \`${chromiumInstallCommand()}\`, or set CHROMIUM_PATH to a Chromium executable.`;
}

/**
 * Playwright's launch options for the browser tests (`use: { launchOptions: chromiumLaunchOptions() }`) and the
 * benchmark (`{ needs: 'browser' }`). Throws, saying how to install one, when no Chromium is found.
 */
function chromiumLaunchOptions({ needs = 'page' }: Pick<FindOptions, 'needs'> = {}): { executablePath: string; args: string[] } {
  const found = findChromium({ needs });
  if (!found) throw new Error(noChromiumMessage(needs));
  return { executablePath: found.path, args: [...CHROMIUM_ARGS] };
}

export { CHROMIUM_ARGS, DEBIAN_PACKAGES, findChromium, chromiumInstallCommand, noChromiumMessage, chromiumLaunchOptions };
