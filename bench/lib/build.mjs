// Production builds of every app, each one timed on its own (cold: webpack's persistent cache is off).
// The output goes to bench/.work/builds/<app>/dist, never to the apps' own dist/ folders, so a benchmark
// run does not pull the builds from under a preview or a browser test running at the same time.

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildEnvironment } from '../../scripts/releaseKey.cjs';

/**
 * An app the bench builds: its name (the topology's too) and its folder.
 *
 * @typedef {{ name: string, dir: string, plainConfig?: boolean }} App `plainConfig`: a JavaScript webpack config (no tsx)
 */

/** The apps and their folders, in build order. @type {App[]} */
export const APPS = [
  { name: 'shell', dir: 'shell' },
  { name: 'profile', dir: 'remotes/profile' },
  { name: 'admin', dir: 'remotes/admin' },
  { name: 'reports', dir: 'remotes/reports' },
];

/** The baseline (bench/baseline): a plain host and remote, JavaScript configs, no TypeScript loader at start-up. */
/** @type {App[]} */
export const BASELINE_APPS = [
  { name: 'baselineRemote', dir: 'bench/baseline/remote', plainConfig: true },
  { name: 'baselineHost', dir: 'bench/baseline/host', plainConfig: true },
];

/**
 * The build folder of `app` in `dirs` (buildAll's, or the reused ones of --skip-build); an error when there is none.
 *
 * @param {Readonly<Record<string, string>>} dirs @param {string} app
 * @returns {string}
 */
export function buildDirOf(dirs, app) {
  const dir = dirs[app];
  if (dir === undefined) throw new Error(`bench: no build of ${app}`);
  return dir;
}

/** Cold builds per app; the app's figure is their median. */
export const BUILDS_PER_APP = 3;

/**
 * Runs an app's production build (`webpack --mode production`, as its `npm run build` does, without
 * npm's own start-up) and resolves with the wall time in seconds.
 *
 * @param {string} repoRoot @param {App} app @param {string} outDir
 * @param {NodeJS.ProcessEnv} [extraEnv] more environment for the build (the baseline's REMOTE_URL and IDP_URL)
 * @param {readonly string[]} [extraArgs] more arguments for webpack-cli (the CPU timeline's `--devtool hidden-source-map`)
 * @returns {Promise<number>}
 */
export function buildApp(repoRoot, app, outDir, extraEnv = {}, extraArgs = []) {
  rmSync(outDir, { recursive: true, force: true });
  const webpackBin = join(repoRoot, 'node_modules/.bin/webpack');
  const args = app.plainConfig
    ? ['--mode', 'production', '--output-path', outDir, ...extraArgs]
    : ['--mode', 'production', '--disable-interpret', '--output-path', outDir, ...extraArgs];
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(webpackBin, args, {
      cwd: join(repoRoot, app.dir),
      // Gatehouse's remotes are signed with the local release key the topology pins (decisions/0117), as `npm run build` does
      env: app.plainConfig
        ? { ...process.env, ...extraEnv }
        : { ...buildEnvironment().env, ...extraEnv, NODE_OPTIONS: '--import=tsx --conditions=@gatehouse/source' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) reject(new Error(`The production build of ${app.name} failed (exit ${code}):\n${output.slice(-4000)}`));
      else resolve(seconds);
    });
  });
}

/**
 * Builds every app `times` times, one build after the other (each cold: a fresh output folder, no
 * persistent cache); returns { [app]: seconds[] } and where each app's last build is.
 *
 * @param {string} repoRoot
 * @param {string} workDir the builds go to <workDir>/builds/<app>/dist
 * @param {(message: string) => void} log
 * @param {readonly App[]} [apps]
 * @param {number} [times]
 * @returns {Promise<{ seconds: Record<string, number[]>, dirs: Record<string, string> }>}
 */
export async function buildAll(repoRoot, workDir, log, apps = APPS, times = BUILDS_PER_APP) {
  /** @type {Record<string, number[]>} */
  const seconds = {};
  /** @type {Record<string, string>} */
  const dirs = {};
  for (const app of apps) {
    const outDir = join(workDir, 'builds', app.name, 'dist');
    /** @type {number[]} */
    const appSeconds = [];
    for (let i = 0; i < times; i++) appSeconds.push(await buildApp(repoRoot, app, outDir));
    seconds[app.name] = appSeconds;
    dirs[app.name] = outDir;
    log(`built ${app.name} ${times}× in ${appSeconds.map((s) => s.toFixed(2)).join(', ')} s`);
  }
  return { seconds, dirs };
}
