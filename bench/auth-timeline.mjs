#!/usr/bin/env node
// The sign-in timeline of a cold load of /profile with a session at the provider (bench/README.md,
// "auth_overhead_ratio"): when each step of keycloak-js's check-sso starts and ends, in ms since the
// navigation started, from the page's Resource Timing (its own requests) and Playwright's
// request.timing() (the provider's frames, which the page's timeline does not list).
//
//   node bench/auth-timeline.mjs [--loads 3] [--second-tab]   (uses the builds of the last `npm run bench`)
//
// --second-tab: the loads are second tabs of a browser with /profile open and signed in in a first one
// (time_to_remote_visible_second_tab_ms), seeded by it: its keys request and jose's chunk are on their path.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchBrowser, coldLoad } from './lib/browser.mjs';
import { APPS } from './lib/build.mjs';
import { signIn } from './lib/measure.mjs';
import { ORIGINS, startTopology } from './lib/topology.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK_DIR = join(REPO_ROOT, 'bench/.work');
const { values: args } = parseArgs({
  options: { loads: { type: 'string', default: '3' }, 'second-tab': { type: 'boolean', default: false } },
});

const SHELL_BUILD = join(WORK_DIR, 'builds', 'shell');

/**
 * The shell's script (its path on the server) whose source map lists `source`, e.g. keycloak-js's entry.
 *
 * @param {string} source
 */
function shellScriptCarrying(source) {
  /** @param {string} file @returns {string[]} */
  const sourcesOf = (file) => JSON.parse(readFileSync(join(SHELL_BUILD, 'dist-sourcemaps', `${file}.map`), 'utf8')).sources;
  const script = readdirSync(join(SHELL_BUILD, 'dist'))
    .filter((file) => file.endsWith('.js') && existsSync(join(SHELL_BUILD, 'dist-sourcemaps', `${file}.map`)))
    .find((file) => sourcesOf(file).some((s) => s.includes(source)));
  if (!script) throw new Error(`no script of the shell's build carries ${source}: run \`npm run bench\` first`);
  return `/${script}`;
}
const KEYCLOAK_CHUNK = shellScriptCarrying('node_modules/keycloak-js/lib/keycloak.js');
const AUTH_LIB_CHUNK = shellScriptCarrying('auth-lib/src/session/KeycloakSession.ts');
const CONFIG_CHUNK = shellScriptCarrying('tooling/config/src/validators.generated.cjs');
const REACT_DOM_CHUNK = shellScriptCarrying('node_modules/react-dom/cjs/react-dom-client.production.js');

/**
 * The steps, each matched by the URL of the request that starts it and the one that ends it.
 *
 * @type {Array<[string, (url: URL) => boolean]>}
 */
const STEPS = [
  ['shell: config.json', (u) => u.origin === ORIGINS.shell && u.pathname === '/config.json'],
  ['shell: page entry', (u) => u.origin === ORIGINS.shell && /^\/main\.[0-9a-f]+\.js$/.test(u.pathname)],
  ['shell: auth-lib chunk', (u) => u.origin === ORIGINS.shell && u.pathname === AUTH_LIB_CHUNK],
  ['shell: config validator chunk', (u) => u.origin === ORIGINS.shell && u.pathname === CONFIG_CHUNK],
  ['shell: keycloak-js chunk', (u) => u.origin === ORIGINS.shell && u.pathname === KEYCLOAK_CHUNK],
  ['shell: React DOM chunk', (u) => u.origin === ORIGINS.shell && u.pathname === REACT_DOM_CHUNK],
  ['3rd-party-cookie check (step1.html)', (u) => u.pathname.endsWith('/3p-cookies/step1.html')],
  ['3rd-party-cookie check (step2.html)', (u) => u.pathname.endsWith('/3p-cookies/step2.html')],
  ['login-status frame', (u) => u.pathname.endsWith('/login-status-iframe.html')],
  ['login-status frame /init', (u) => u.pathname.endsWith('/login-status-iframe.html/init')],
  ['silent check-sso: auth', (u) => u.pathname.endsWith('/protocol/openid-connect/auth')],
  ['silent check-sso: silent-check-sso.html', (u) => u.pathname === '/silent-check-sso.html'],
  ['token', (u) => u.pathname.endsWith('/protocol/openid-connect/token')],
  ["shell: jose's chunk (a seeded tab's verifier)", (u) => u.origin === ORIGINS.shell && u.pathname.startsWith('/token-verifier.')],
  ["provider's keys (a seeded tab's verifier)", (u) => u.pathname.endsWith('/protocol/openid-connect/certs')],
  ['remote: mf-manifest.json', (u) => u.origin === ORIGINS.profile && u.pathname === '/mf-manifest.json'],
  ['remote: remoteEntry.js', (u) => u.origin === ORIGINS.profile && u.pathname === '/remoteEntry.js'],
  ['remote: ./App chunk', (u) => u.origin === ORIGINS.profile && u.pathname.startsWith('/__federation_expose_App')],
];

async function main() {
  const dists = Object.fromEntries(APPS.map((app) => [app.name, join(WORK_DIR, 'builds', app.name, 'dist')]));
  for (const dir of Object.values(dists))
    if (!existsSync(join(dir, 'index.html'))) throw new Error(`no build in ${dir}: run \`npm run bench\` first`);
  const topology = await startTopology({ repoRoot: REPO_ROOT, workDir: WORK_DIR, dirs: dists, log: () => undefined });
  const browser = await launchBrowser();
  try {
    const session = await signIn(browser);
    const first = args['second-tab']
      ? await coldLoad(browser, `${ORIGINS.shell}/profile`, { elementId: 'profile-heading', storageState: session })
      : null;
    for (let i = 0; i < Number(args.loads); i++) {
      /** @type {import('./lib/browser.mjs').Request[]} */
      const requests = [];
      const load = await coldLoad(browser, `${ORIGINS.shell}/profile`, {
        elementId: 'profile-heading',
        ...(first ? { context: first.context } : { storageState: session }),
        beforeGoto: (page) => {
          page.on('requestfinished', (request) => requests.push(request));
        },
      });
      await load.quiet();
      // the navigation's start in wall-clock ms, to put the frames' request timings on the page's clock
      const navigationStart = await load.page.evaluate(() => performance.timeOrigin);
      console.log(`load ${i + 1}: profile heading painted at ${Math.round(load.paint)} ms`);
      for (const [name, matches] of STEPS) {
        const request = requests.find((r) => matches(new URL(r.url())));
        if (!request) {
          console.log(`  ${name.padEnd(42)} (not requested)`);
          continue;
        }
        const t = request.timing();
        const start = t.startTime - navigationStart;
        console.log(`  ${name.padEnd(42)} ${Math.round(start)} → ${Math.round(start + t.responseEnd)} ms`);
      }
      if (first) await load.page.close();
      else await load.context.close();
    }
    await first?.context.close();
  } finally {
    await browser.close();
    await topology.stop();
  }
}

main().catch((/** @type {unknown} */ error) => {
  console.error(error instanceof Error ? (error.stack ?? error) : error);
  process.exit(1);
});
