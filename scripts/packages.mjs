#!/usr/bin/env node
// The packages a remote in its own repository installs, made available the way an organisation does it
// (decisions/0049): every workspace package that is not `private` — @gatehouse/auth-lib, @gatehouse/config,
// @gatehouse/federation and @gatehouse/contract-check, versioned together from lerna.json.
//
//   npm run publish:packages -- --registry <url> [--allow-dirty] [npm publish options]   build and publish them
//                                                                        to a registry (https, or http on loopback)
//   npm run pack:packages -- <dir>                                       build and pack them into <dir> (for --packages)
//
// Each package's `prepack` builds it, so both commands publish or pack what the sources are now. Publishing refuses a
// working tree with uncommitted changes (what is published must be a commit; --allow-dirty for a throwaway
// registry), a plain-http registry other than loopback, and a version the registry already has; it packs every
// package before it publishes any, so a failing build publishes nothing.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lock } from 'proper-lockfile';

export const REPO_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * The published packages: the workspaces (root package.json) whose package.json is not `private`.
 *
 * @returns {Array<{ name: string, version: string, dir: string }>}
 */
export function publishedPackages() {
  /** @type {{ workspaces: string[] }} */
  const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  const packages = root.workspaces
    .flatMap((pattern) =>
      // the patterns this repository uses: a folder, or every folder of one (`tooling/*`)
      pattern.endsWith('/*')
        ? readdirSync(join(REPO_ROOT, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -1)}${name}`)
        : [pattern],
    )
    .map((dir) => `${dir}/package.json`)
    .filter((file) => existsSync(join(REPO_ROOT, file)))
    .sort()
    .map((file) => ({ file, pkg: JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) }))
    .filter(({ pkg }) => pkg.private !== true)
    .map(({ file, pkg }) => ({
      name: String(pkg.name),
      version: String(pkg.version),
      dir: join(REPO_ROOT, file, '..'),
      needs: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }),
    }));
  return dependenciesFirst(packages).map(({ name, version, dir }) => ({ name, version, dir }));
}

/**
 * The packages ordered so each comes after the ones it depends on: a package's build reads their built types
 * (contract-check's build needs federation's dist/).
 *
 * @template {{ name: string, needs: string[] }} P
 * @param {readonly P[]} packages
 * @returns {P[]}
 */
function dependenciesFirst(packages) {
  /** @type {P[]} */
  const ordered = [];
  /** @param {P} pkg */
  const place = (pkg) => {
    if (ordered.includes(pkg)) return;
    for (const need of pkg.needs) {
      const dependency = packages.find((other) => other.name === need);
      if (dependency) place(dependency);
    }
    ordered.push(pkg);
  };
  packages.forEach(place);
  return ordered;
}

const USAGE = `usage: npm run publish:packages -- --registry <url> [--allow-dirty] [npm publish options, e.g. --tag next, --dry-run]
       npm run pack:packages -- <dir>`;

/** @param {string} message @returns {never} */
function usage(message) {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

/**
 * `npm <args>` in `cwd`; resolves to its exit code (1 when it could not start).
 *
 * @param {readonly string[]} args @param {string} cwd @param {import('node:child_process').StdioOptions} stdio
 * @returns {Promise<number>}
 */
function npm(args, cwd, stdio) {
  return new Promise((resolvePromise) => {
    const child = spawn('npm', args, { cwd, stdio });
    child.once('error', () => resolvePromise(1));
    child.once('exit', (code) => resolvePromise(code ?? 1));
  });
}

const PACK_LOCK = join(REPO_ROOT, 'node_modules/.cache/gatehouse-packing.lock');

/**
 * Runs `work` (packing) while holding PACK_LOCK. Each package's `prepack` empties and rebuilds its dist/, so two packs
 * at once (e2e's production and registry suites, which \`npm test\` runs in two lanes; two terminals) would put one's
 * half-built files into the other's tarballs: the second waits for the first (proper-lockfile: kept fresh while its
 * holder lives, taken over when the holder died).
 *
 * @template T @param {() => Promise<T>} work @returns {Promise<T>}
 */
async function whilePacking(work) {
  mkdirSync(dirname(PACK_LOCK), { recursive: true });
  const release = await lock(dirname(PACK_LOCK), {
    lockfilePath: PACK_LOCK,
    realpath: false,
    stale: 20_000,
    // packing every package takes under a minute on a busy 2-core machine; wait up to 10
    retries: { retries: 600, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
  }).catch((/** @type {unknown} */ error) => {
    process.stderr.write(
      `[packages] waited 10 minutes for another run's packing (${PACK_LOCK} is held); if nothing else is packing, delete it and run again: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
  try {
    return await work();
  } finally {
    await release();
  }
}

/**
 * Runs `npm <args>` in each published package, dependencies first (npm's own --workspace runs them in the
 * workspaces' order); stops at the first failure.
 *
 * @param {readonly string[]} args
 */
async function npmInEach(args) {
  for (const { name, dir } of publishedPackages()) {
    process.stderr.write(`[packages] ${name}: npm ${args.join(' ')}\n`);
    const status = await npm(args, dir, 'inherit');
    if (status !== 0) {
      process.stderr.write(`[packages] npm ${args[0]} of ${name} failed (exit code ${status}); its output is above.\n`);
      process.exit(status);
    }
  }
}

/**
 * Why publishing to `registry` from this working tree is refused, or null: a plain-http registry that is not on
 * loopback (the packages and the publish token would cross the network in clear), uncommitted changes (what is
 * published must be a commit) unless `allowDirty`.
 *
 * @param {string} registry @param {boolean} allowDirty @returns {string | null}
 */
export function publishProblem(registry, allowDirty) {
  const url = new URL(registry);
  if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
    return `publish:packages refuses ${registry}: plain http sends the packages and your token in clear. Use the registry's https address (http only on loopback, e.g. a local Verdaccio).`;
  if (allowDirty) return null;
  const status = spawnSync('git', ['status', '--porcelain'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (status.status !== 0)
    return `publish:packages cannot tell whether ${REPO_ROOT} has uncommitted changes (git status failed): publish from a git checkout.`;
  if (status.stdout.trim() !== '')
    return `publish:packages refuses a working tree with uncommitted changes (git status --porcelain lists ${status.stdout.trim().split('\n').length} paths): what is published must be a commit. Commit or stash them, or pass --allow-dirty (e.g. for a throwaway registry).`;
  return null;
}

/**
 * Publishes every package, all or (as far as npm allows) none: refuses when the registry already has one of the
 * versions, packs them all first (each `prepack` builds; a failure publishes nothing), then publishes the tarballs.
 * A publish that fails after others succeeded names what was published.
 *
 * @param {readonly string[]} args `npm publish` options, --registry included @param {string} registry
 */
async function publishAll(args, registry) {
  const packages = publishedPackages();
  const taken = packages.filter(({ name, version }) => {
    const view = spawnSync('npm', ['view', `${name}@${version}`, 'version', '--registry', registry], { encoding: 'utf8' });
    return view.status === 0 && view.stdout.trim() === version;
  });
  if (taken.length > 0) {
    process.stderr.write(
      `[packages] ${registry} already has ${taken.map((p) => `${p.name}@${p.version}`).join(', ')}: nothing published. Raise the version (lerna.json) first.
`,
    );
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-publish-'));
  try {
    const tarballs = await whilePacking(async () => {
      /** @type {Array<{ name: string, file: string }>} */
      const packed = [];
      for (const { name, dir: packageDir } of packages) {
        process.stderr.write(`[packages] ${name}: npm pack\n`);
        const before = new Set(readdirSync(dir));
        // the build's own output (prepack) goes to stderr, so stdout stays npm's
        const status = await npm(['pack', '--pack-destination', dir], packageDir, ['ignore', 2, 'inherit']);
        const [tarball] = readdirSync(dir).filter((file) => file.endsWith('.tgz') && !before.has(file));
        if (status !== 0 || !tarball) {
          process.stderr.write(`[packages] npm pack of ${name} failed (exit code ${status}); nothing published.\n`);
          process.exit(status || 1);
        }
        packed.push({ name, file: join(dir, tarball) });
      }
      return packed;
    });
    /** @type {string[]} */
    const published = [];
    for (const { name, file } of tarballs) {
      process.stderr.write(`[packages] ${name}: npm publish ${args.join(' ')}\n`);
      const result = spawnSync('npm', ['publish', file, ...args], { cwd: REPO_ROOT, stdio: 'inherit' });
      if (result.status !== 0) {
        process.stderr.write(
          `[packages] npm publish of ${name} failed (exit code ${result.status}); its output is above. ${published.length > 0 ? `Already published: ${published.join(', ')} (deprecate or unpublish them, or publish the rest once the cause is fixed).` : 'Nothing was published.'}\n`,
        );
        process.exit(result.status ?? 1);
      }
      published.push(name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'pack') {
    const [dir, ...extra] = rest;
    if (!dir || dir.startsWith('-') || extra.length > 0) usage('pack:packages needs one argument: the folder to write the tarballs to.');
    // npm run changes to the repository root; a relative folder means the one the command was typed in
    const destination = resolve(process.env.INIT_CWD ?? process.cwd(), dir);
    mkdirSync(destination, { recursive: true });
    await whilePacking(() => npmInEach(['pack', '--pack-destination', destination]));
  } else if (command === 'publish') {
    const allowDirty = rest.includes('--allow-dirty');
    const args = rest.filter((arg) => arg !== '--allow-dirty');
    const at = args.findIndex((arg) => arg === '--registry' || arg.startsWith('--registry='));
    const registry = at === -1 ? '' : args[at] === '--registry' ? (args[at + 1] ?? '') : (args[at] ?? '').slice('--registry='.length);
    if (!/^https?:\/\//.test(registry))
      usage('publish:packages needs --registry <url>: the registry to publish to (e.g. your Verdaccio, or https://registry.npmjs.org/).');
    const problem = publishProblem(registry, allowDirty);
    if (problem) usage(problem);
    await publishAll(args, registry);
  } else usage(`Unknown command "${command ?? ''}".`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
