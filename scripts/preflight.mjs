#!/usr/bin/env node
// What `npm start`, `npm test`, `npm run build`, `npm run preview` and `npm run bench` check first, so each works as
// the first command typed on a fresh clone: a Node version the toolchain supports, the lockfile's packages installed
// (`npm ci` when node_modules is missing or older than package-lock.json), for the tests Chromium (its browser and
// its headless shell) and nginx, for the preview nginx, for the bench every program the parts its flags leave in
// run later (nginx, Chromium, openssl, Java 21+, Maven, unzip, wrk) and the Keycloak it measures (installed with
// apt-get when running as root on Debian, else the exact command is printed).
//
//   node scripts/preflight.mjs start|test|build|preview
//   node scripts/preflight.mjs bench [--skip-cross-site] [--skip-keycloak] [--no-provider-cost] [--no-keycloak-cpu]
//     (bench/run.mjs and bench/provider-cost.mjs run it themselves, with the flags of their parts)
//
// Plain Node and no dependencies: it runs before anything is installed. testkit (TypeScript, run compiled from
// tooling/testkit/dist) is loaded once the packages are: `npm ci` builds it, and so does this script when a testkit
// source is newer than the build (decisions/0113).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { endOfLifeWarning } from './nodeEndOfLife.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** @param {string} message */
function say(message) {
  process.stderr.write(`[preflight] ${message}\n`);
}

/** @param {string} message @returns {never} */
function fail(message) {
  process.stderr.write(`\n[preflight] ${message}\n\n`);
  process.exit(1);
}

/**
 * Node's version against package.json's `engines.node` (`^20.19.0 || ^22.12.0 || >=24.0.0`): a clear
 * stop instead of odd errors later. Understands the `^x.y.z` and `>=x.y.z` clauses that range uses.
 */
function checkNode() {
  /** @type {string} */
  const range = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines?.node ?? '';
  const [major = 0, minor = 0, patch = 0] = process.versions.node.split('.').map(Number);
  const have = major * 1e6 + minor * 1e3 + patch;
  const fits = range.split('||').some((clause) => {
    const match = /^\s*(\^|>=)\s*(\d+)\.(\d+)\.(\d+)\s*$/.exec(clause);
    if (!match) return true; // a clause this check does not understand: let npm judge
    const [, operator, wantMajor, wantMinor, wantPatch] = match;
    const want = Number(wantMajor) * 1e6 + Number(wantMinor) * 1e3 + Number(wantPatch);
    return have >= want && (operator === '>=' || major === Number(wantMajor));
  });
  if (!fits) {
    fail(
      `Node ${process.versions.node} is not supported: Gatehouse needs Node ${range} (20.19+, 22.12+ or 24; .nvmrc names the one to use). With nvm: \`nvm install\` in this folder.`,
    );
  }
  const endOfLife = endOfLifeWarning(process.versions.node, new Date());
  if (endOfLife) say(`warning: ${endOfLife}`);
}

/**
 * Why node_modules needs (re)installing, or null when it matches package-lock.json. A node_modules
 * newer than the lockfile is taken as is; an older one (a fresh checkout touches every file) is compared
 * with npm's record of what it installed, node_modules/.package-lock.json, package by package.
 *
 * @returns {string | null}
 */
function staleInstall() {
  const lockFile = join(ROOT, 'package-lock.json');
  const installed = join(ROOT, 'node_modules/.package-lock.json');
  if (!existsSync(installed)) return 'node_modules is missing';
  if (statSync(installed).mtimeMs >= statSync(lockFile).mtimeMs) return null;
  /** @type {Record<string, { version?: string, optional?: boolean, link?: boolean }>} */
  const wanted = JSON.parse(readFileSync(lockFile, 'utf8')).packages ?? {};
  /** @type {Record<string, { version?: string }>} */
  const have = JSON.parse(readFileSync(installed, 'utf8')).packages ?? {};
  for (const [path, entry] of Object.entries(wanted)) {
    if (path === '') continue;
    const present = have[path];
    // Optional packages for other platforms (esbuild's, say) are never installed here.
    if (!present) {
      if (entry.optional) continue;
      return `node_modules is older than package-lock.json (${path.replace(/^node_modules\//, '')} is not installed)`;
    }
    if (entry.version !== present.version) {
      return `node_modules is older than package-lock.json (${path.replace(/^node_modules\//, '')} ${present.version ?? '?'} is installed, the lockfile says ${entry.version})`;
    }
  }
  return null;
}

function installPackages() {
  const reason = staleInstall();
  if (!reason) return;
  say(`${reason}: installing the lockfile's packages (npm ci) …`);
  const started = Date.now();
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' });
  if (result.error) fail(`Could not run npm: ${result.error.message}. Is npm on PATH?`);
  if (result.status !== 0) fail('npm ci failed (its output is above). Fix that, then run the command again.');
  say(`packages installed in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/**
 * testkit's build, made when a source is newer (tooling/testkit/scripts/build.mjs), once the packages it is built
 * with are installed; then the parts of it this script uses.
 */
async function loadTestkit() {
  const { ensureTestkitBuilt } = await import('../tooling/testkit/scripts/build.mjs');
  try {
    ensureTestkitBuilt({ log: say });
  } catch (error) {
    fail(/** @type {Error} */ (error).message);
  }
  return {
    ...(await import('@gatehouse/testkit/chromium')),
    ...(await import('@gatehouse/testkit/nginx')),
    ...(await import('@gatehouse/testkit/system-tools')),
  };
}

/**
 * A CHROMIUM_PATH or NGINX_BIN that names no executable is a stop, with the message saying so.
 *
 * @param {'page' | 'browser'} needs as findChromium's
 */
function findChromiumOrFail(needs) {
  try {
    return findChromium({ needs });
  } catch (error) {
    return fail(/** @type {Error} */ (error).message);
  }
}

function findNginxOrFail() {
  try {
    return findNginx();
  } catch (error) {
    return fail(/** @type {Error} */ (error).message);
  }
}

/**
 * What the browser tests and the preview need: Chromium's browser (the HTTPS suite sets its profile's cookie
 * mode) and its headless shell (every other browser test: half the CPU a page, decisions/0104), nginx. As root
 * on Debian (a container, a CI runner) the missing ones are installed as .ci/run does; elsewhere the command to run
 * is printed. A missing headless shell is no stop: the tests then run in the browser, slower.
 */
function checkTestTools(needChromium = true) {
  const look = () => ({
    browser: needChromium ? findChromiumOrFail('browser') : null,
    page: needChromium ? findChromiumOrFail('page') : null,
    nginx: findNginxOrFail(),
  });
  let found = look();
  const missing = [];
  if (needChromium && !found.browser) missing.push({ name: 'Chromium', debianPackage: DEBIAN_PACKAGES.browser });
  // optional: a distribution without the package (or a failed install of it) leaves the tests in the browser
  const wantsShell = needChromium && found.page?.source !== 'CHROMIUM_PATH' && found.page?.build !== 'headless-shell';
  if (!found.nginx) missing.push({ name: 'nginx', debianPackage: 'nginx-light' });

  // `apt-get install`, after one `apt-get update` per run; returns the first failing step, if any.
  const apt = aptGetInstaller();
  if (missing.length > 0 && canInstallSystemPackages()) {
    const packages = [...missing.map((tool) => tool.debianPackage), 'fonts-dejavu-core'];
    say(`${missing.map((tool) => tool.name).join(' and ')} missing; installing with apt-get (${packages.join(' ')}) …`);
    const failed = apt.install(packages);
    if (failed) fail(`${failed} failed (its errors are above).`);
    found = look();
  }
  if (wantsShell && canInstallSystemPackages()) {
    say(`Chromium's headless shell missing; installing with apt-get (${DEBIAN_PACKAGES['headless-shell']}) …`);
    if (apt.install([DEBIAN_PACKAGES['headless-shell']]))
      say("apt-get could not install Chromium's headless shell (above): the browser tests run in the browser.");
    found = look();
  }

  if (needChromium && !found.browser) fail(noChromiumMessage('browser'));
  if (!found.nginx)
    fail(
      `nginx not found: ${needChromium ? 'the production browser tests serve' : '`npm run preview` serves'} the builds with it. Install it with \`${nginxInstallCommand()}\`${osName() ? ` (${osName()})` : ''}, or set NGINX_BIN.`,
    );
  if (!found.browser || !found.page) return say(`nginx: ${found.nginx}`);
  /** @param {{ path: string, source: string }} chromium */
  const where = (chromium) =>
    `${chromium.path} (${chromium.source === 'CHROMIUM_PATH' ? 'from CHROMIUM_PATH' : chromium.source === 'system' ? "the system's" : "Playwright's own"})`;
  say(
    found.page.path === found.browser.path
      ? `browser: ${where(found.browser)}${found.page.source === 'CHROMIUM_PATH' ? '' : ` (no headless shell: the browser tests run in the browser, slower${isDebian() ? `; \`${chromiumInstallCommand()}\` adds it` : ''})`}; nginx: ${found.nginx}`
      : `browser tests: ${where(found.page)}, the HTTPS suite: ${where(found.browser)}; nginx: ${found.nginx}`,
  );
}

/**
 * The bench's parts that its flags leave in (bench/run.mjs passes the flags of its parts, bench/provider-cost.mjs
 * those of the provider cost alone).
 *
 * @param {string[]} args
 * @returns {import('@gatehouse/testkit/bench-tools').BenchParts}
 */
function benchParts(args) {
  try {
    const { values: flags } = parseArgs({
      args,
      options: {
        'skip-cross-site': { type: 'boolean', default: false },
        'skip-keycloak': { type: 'boolean', default: false },
        'no-provider-cost': { type: 'boolean', default: false },
        'no-keycloak-cpu': { type: 'boolean', default: false },
      },
    });
    return {
      crossSite: !flags['skip-cross-site'],
      keycloak: !flags['skip-keycloak'],
      providerCost: !flags['no-provider-cost'],
      keycloakCpu: !flags['no-keycloak-cpu'],
    };
  } catch (error) {
    return fail(
      `${/** @type {Error} */ (error).message}\nusage: node scripts/preflight.mjs bench [--skip-cross-site] [--skip-keycloak] [--no-provider-cost] [--no-keycloak-cpu]`,
    );
  }
}

/**
 * What the bench's `parts` run later, looked for before it builds anything (tooling/testkit/src/benchTools.ts):
 * the missing ones installed as root on Debian, else a stop that names the command for each. Then the Keycloak it
 * measures, fetched and unpacked now if it is not yet (Maven, ~150 MB the first time), not 20 minutes in.
 *
 * @param {import('@gatehouse/testkit/bench-tools').BenchParts} parts
 */
async function checkBenchTools(parts) {
  // loaded here: only the bench needs Keycloak's runner (and the process helpers it brings)
  const { benchToolRequirements } = await import('@gatehouse/testkit/bench-tools');
  const { obtainKeycloak } = await import('@gatehouse/testkit/keycloak');
  const keycloakDir = join(ROOT, 'bench/.work/keycloak');
  const { found, problems } = ensureTools(benchToolRequirements({ ...parts, keycloakDir }), { log: say });
  if (problems.length > 0) fail(`The bench needs what is missing below; nothing was built or measured.\n- ${problems.join('\n- ')}`);
  say(
    Object.entries(found)
      .map(([name, where]) => `${name}: ${where}`)
      .join('; '),
  );
  if (parts.keycloak || parts.providerCost) {
    try {
      await obtainKeycloak({ dir: keycloakDir, log: (message) => say(`keycloak: ${message}`) });
    } catch (error) {
      fail(/** @type {Error} */ (error).message);
    }
  }
}

const command = process.argv[2];
if (command !== 'start' && command !== 'test' && command !== 'build' && command !== 'preview' && command !== 'bench')
  fail('usage: node scripts/preflight.mjs start|test|build|preview|bench');
const parts = command === 'bench' ? benchParts(process.argv.slice(3)) : null;
checkNode();
installPackages();
const {
  aptGetInstaller,
  canInstallSystemPackages,
  chromiumInstallCommand,
  DEBIAN_PACKAGES,
  ensureTools,
  findChromium,
  findNginx,
  isDebian,
  nginxInstallCommand,
  noChromiumMessage,
  osName,
} = await loadTestkit();
if (command === 'test') checkTestTools();
if (command === 'preview') checkTestTools(false);
if (parts) await checkBenchTools(parts);
