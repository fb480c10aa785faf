// rebuild_ms: the profile remote's dev server (webpack-dev-server with the app's own development
// configuration) is started on a copy of the remote in bench/.work, so that the edits made here
// never touch the real sources or a dev server someone else runs; then one source file is edited
// again and again, and the time from the write to the end of the rebuild is taken each time.
//
// Runs as a child process (`node bench/lib/rebuild.mjs <copy-dir> <edits>`), because the app's
// webpack config is TypeScript (loaded through tsx) and its compiler should not share the
// benchmark's event loop.

import { spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const EDITED_FILE = 'src/App.tsx';
const COPIED = ['src', 'public', 'package.json', 'tsconfig.json', 'webpack.config.ts'];

/**
 * What an app's webpack.config.ts exports: tooling/federation's defineApp(), a function of webpack-cli's arguments.
 *
 * @typedef {(env: unknown, argv: { mode?: 'development' | 'production' }) =>
 *   import('webpack').Configuration & { devServer: import('webpack-dev-server').Configuration }} AppConfigFactory
 */

/**
 * Copies the remote to `copyDir` (below the repository root, so node_modules resolve the same; its
 * tsconfig's relative `extends` is made absolute) and measures `edits` rebuilds.
 *
 * @param {object} options
 * @param {string} options.repoRoot
 * @param {string} options.remoteDir the remote's folder, relative to repoRoot
 * @param {string} options.copyDir where the copy goes (removed again at the end)
 * @param {number} options.edits
 * @returns {Promise<number[]>} milliseconds per rebuild
 */
export async function measureRebuilds({ repoRoot, remoteDir, copyDir, edits }) {
  rmSync(copyDir, { recursive: true, force: true });
  for (const entry of COPIED) cpSync(join(repoRoot, remoteDir, entry), join(copyDir, entry), { recursive: true });
  const tsconfig = JSON.parse(readFileSync(join(copyDir, 'tsconfig.json'), 'utf8'));
  if (typeof tsconfig.extends === 'string' && tsconfig.extends.startsWith('.'))
    tsconfig.extends = resolve(repoRoot, remoteDir, tsconfig.extends);
  writeFileSync(join(copyDir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import=tsx', '--conditions=@gatehouse/source', new URL(import.meta.url).pathname, copyDir, String(edits)],
      {
        cwd: copyDir,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => {
      rmSync(copyDir, { recursive: true, force: true });
      const line = output.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`the rebuild probe failed (exit ${code}): ${output.slice(-2000)}`));
      else resolve(JSON.parse(line).rebuilds);
    });
  });
}

/**
 * The child process: starts the dev server on the copy and prints `{ rebuilds: ms[] }` as its last line.
 *
 * @param {string} copyDir @param {number} edits
 */
async function probe(copyDir, edits) {
  // the process runs with --import=tsx, as the apps' own scripts do: require() reads TypeScript
  const requireFromApp = createRequire(join(copyDir, 'package.json'));
  /** @type {typeof import('webpack')} */
  const webpack = requireFromApp('webpack');
  /** @type {typeof import('webpack-dev-server')} */
  const WebpackDevServer = requireFromApp('webpack-dev-server');
  /** @type {AppConfigFactory} */
  const defineConfig = requireFromApp('./webpack.config.ts').default;
  const config = defineConfig(undefined, { mode: 'development' });
  config.infrastructureLogging = { level: 'error' };
  config.stats = 'none';
  const compiler = webpack(config);
  /** @type {((finishedAt: number) => void) | null} */
  let onDone = null;
  compiler.hooks.done.tap('bench', (stats) => {
    if (stats.hasErrors()) {
      console.error(stats.toString('errors-only'));
      process.exit(1);
    }
    const resolveDone = onDone;
    onDone = null;
    resolveDone?.(performance.now());
  });
  /** @type {Promise<number>} */
  const firstBuild = new Promise((r) => {
    onDone = r;
  });
  const server = new WebpackDevServer({ ...config.devServer, port: 0, open: false }, compiler);
  await server.start();
  await firstBuild;

  const file = join(copyDir, EDITED_FILE);
  const original = readFileSync(file, 'utf8');
  /** @type {number[]} */
  const rebuilds = [];
  for (let i = 0; i < edits; i++) {
    await new Promise((r) => setTimeout(r, 400));
    /** @type {Promise<number>} */
    const done = new Promise((r) => {
      onDone = r;
    });
    const started = performance.now();
    writeFileSync(file, original.replace('<h1', `<h1 data-edit="${i + 1}"`));
    rebuilds.push((await done) - started);
  }
  await server.stop();
  await new Promise((r) => compiler.close(r));
  process.stdout.write(`${JSON.stringify({ rebuilds })}\n`);
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const [copyDir = process.cwd()] = process.argv.slice(2);
  probe(copyDir, Number(process.argv[3] ?? 10)).then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
