#!/usr/bin/env node
// testkit's build: src/ (TypeScript) compiled by tsc into dist/ (CommonJS and declarations), which plain Node loads —
// scripts/*.mjs, bench/, Playwright's configs and specs — on every Node the repository supports, 20 included, which
// cannot run TypeScript itself (decisions/0113). TypeScript consumers (jest, tsx with the @gatehouse/source
// condition, tsc) read src/ directly and need no build.
//
//   node tooling/testkit/scripts/build.mjs            builds when a source is newer than the build (`npm ci` runs it:
//                                                     the package's `prepare`; so does scripts/preflight.mjs)
//   node tooling/testkit/scripts/build.mjs --force    builds in any case (`npm run build -w @gatehouse/testkit`)
//
// Two runs at once (`npm test` and `npm run keycloak` side by side) build once: a lock folder, then a look again. The
// new build is written beside dist/ and moved into place whole, so a process loading dist/ meanwhile finds a
// complete build, the old or the new.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = join(PACKAGE, 'dist');
/** Written last into a complete build; its time is the build's. */
const STAMP = join(DIST, '.built');
const LOCK = join(PACKAGE, '.build-lock');
/** What the build is made from, besides src/. */
const INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json', '../../tsconfig.base.json'];

/** The newest modification time of the files under `dir` (0 for none). @param {string} dir @returns {number} */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Why dist/ needs building, or null when it is newer than every source. @returns {string | null} */
export function staleBuild() {
  if (!existsSync(STAMP)) return 'testkit is not built yet';
  const built = statSync(STAMP).mtimeMs;
  const newest = Math.max(newestUnder(join(PACKAGE, 'src')), ...INPUTS.map((file) => statSync(join(PACKAGE, file)).mtimeMs));
  return newest > built ? 'a testkit source is newer than its build' : null;
}

/** Takes the lock; false when another build holds it. @returns {boolean} */
function tryLock() {
  try {
    mkdirSync(LOCK);
    return true;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    return false;
  }
}

/** Holds the lock while `work` runs; waits (up to 2 minutes) for another build to end first. @param {() => void} work */
function withLock(work) {
  const deadline = Date.now() + 120_000;
  while (!tryLock()) {
    // a lock left by a build that was killed: older than any build takes
    const since = statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > 120_000) rmSync(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`testkit: another build holds ${LOCK} for 2 minutes; remove it if no build runs.`);
    spawnSync('sleep', ['0.2']);
  }
  try {
    work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Compiles src/ into a folder beside dist/, then puts it in dist/'s place. */
function compile() {
  let tsc;
  try {
    tsc = createRequire(join(PACKAGE, 'package.json')).resolve('typescript/bin/tsc');
  } catch (error) {
    throw new Error('testkit runs compiled (tooling/testkit/dist) and building it needs TypeScript: install the packages first (npm ci).', {
      cause: error,
    });
  }
  const next = join(PACKAGE, `dist.${process.pid}.tmp`);
  rmSync(next, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, '-p', join(PACKAGE, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
  if (result.status !== 0) {
    rmSync(next, { recursive: true, force: true });
    throw new Error(`testkit: tsc failed (exit code ${result.status ?? result.signal}; its errors are above).`);
  }
  writeFileSync(join(next, '.built'), `${new Date().toISOString()}\n`);
  const old = join(PACKAGE, `dist.${process.pid}.old`);
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(next, DIST);
  rmSync(old, { recursive: true, force: true });
}

/**
 * Builds dist/ when it is missing or older than a source (or always, with `force`); says so through `log`.
 *
 * @param {{ force?: boolean, log?: (message: string) => void }} [options]
 */
export function ensureTestkitBuilt({ force = false, log = (message) => process.stderr.write(`[testkit] ${message}\n`) } = {}) {
  if (!force && !staleBuild()) return;
  withLock(() => {
    const reason = force ? 'building (--force)' : staleBuild();
    if (!reason) return; // built by another run while this one waited
    const started = Date.now();
    compile();
    log(`${reason}: built tooling/testkit/dist in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureTestkitBuilt({ force: process.argv.includes('--force') });
  } catch (error) {
    process.stderr.write(`${/** @type {Error} */ (error).message}\n`);
    process.exit(1);
  }
}
