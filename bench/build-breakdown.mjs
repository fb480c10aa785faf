#!/usr/bin/env node
// Where a cold production build of one app spends its time (bench/README.md, "build_s_per_app"):
// Node + tsx + the app's TypeScript config and its plugins (start-up), webpack's compile (modules,
// chunks), the minifiers (processAssets' size stage: swc for the files that carry the federation
// runtime, esbuild for the rest) and writing the output. Each phase is timed inside the build's own
// process, from the same hooks webpack runs them in.
//
//   node bench/build-breakdown.mjs [app-dir …]     (default: shell remotes/profile; 3 builds each)

import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './lib/stats.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUILDS = 3;

// Runs in the build's process (node --import tsx): loads the app's config as webpack-cli would, builds.
const PROBE = `
const t0 = performance.timeOrigin;
const since = () => performance.now();
const webpack = require('webpack');
const config = require(process.cwd() + '/webpack.config.ts').default(undefined, { mode: 'production' });
config.output.path = process.env.BREAKDOWN_OUT;
const phases = { configLoaded: since() };
const compiler = webpack(config);
compiler.hooks.compile.tap('breakdown', () => { phases.compileStart ??= since(); });
compiler.hooks.thisCompilation.tap('breakdown', (compilation) => {
  const stage = webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE;
  compilation.hooks.processAssets.tap({ name: 'breakdown', stage: stage - 1 }, () => { phases.minifyStart = since(); });
  compilation.hooks.processAssets.tap({ name: 'breakdown', stage: stage + 1 }, () => { phases.minifyEnd = since(); });
});
compiler.hooks.afterEmit.tap('breakdown', () => { phases.emitted = since(); });
compiler.run((error, stats) => {
  if (error || stats.hasErrors()) { console.error(error ?? stats.toString('errors-only')); process.exit(1); }
  compiler.close(() => { process.stdout.write(JSON.stringify({ ...phases, done: since() }) + '\\n'); });
});
`;

/**
 * One cold build of the app in `appDir`, its phases in ms.
 *
 * @param {string} appDir relative to the repository
 * @returns {{ startup: number, compile: number, minify: number, emit: number, wall: number }}
 */
function buildOnce(appDir) {
  const out = join(REPO_ROOT, 'bench/.work/breakdown', appDir.replace(/\W+/g, '-'));
  rmSync(out, { recursive: true, force: true });
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--import=tsx', '-e', PROBE], {
    cwd: join(REPO_ROOT, appDir),
    encoding: 'utf8',
    env: { ...process.env, BREAKDOWN_OUT: out },
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`build of ${appDir} failed:\n${child.stderr.slice(-3000)}`);
  /** @type {{ compileStart: number, minifyStart: number, minifyEnd: number, done: number }} */
  const p = JSON.parse(line);
  // performance.now() counts from the process's start; the rest of the wall time is Node's own start and exit
  return {
    startup: p.compileStart,
    compile: p.minifyStart - p.compileStart,
    minify: p.minifyEnd - p.minifyStart,
    emit: p.done - p.minifyEnd,
    wall,
  };
}

const apps = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['shell', 'remotes/profile'];
for (const app of apps) {
  const runs = Array.from({ length: BUILDS }, () => buildOnce(app));
  const median = (/** @type {keyof (typeof runs)[number]} */ key) => Math.round(summarize(runs.map((r) => r[key])).median);
  console.log(
    `${app}: median of ${BUILDS} cold builds (ms): start-up (Node, tsx, config, plugins) ${median('startup')}, ` +
      `compile ${median('compile')}, minify ${median('minify')}, seal rest + emit ${median('emit')}, wall ${median('wall')}`,
  );
}
