#!/usr/bin/env node
// The packages a remote in its own repository installs, made available the way an organisation does it
// (decisions/0049): every workspace package that is not `private` — @gatehouse/auth-lib,
// @gatehouse/federation and @gatehouse/contract-check, versioned together from lerna.json.
//
//   npm run publish:packages -- --registry <url> [npm publish options]   build and publish them to a registry
//   npm run pack:packages -- <dir>                                       build and pack them into <dir> (for --packages)
//
// Each package's `prepack` builds it, so both commands publish or pack what the sources are now.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const USAGE = `usage: npm run publish:packages -- --registry <url> [npm publish options, e.g. --tag next, --dry-run]
       npm run pack:packages -- <dir>`;

/** @param {string} message @returns {never} */
function usage(message) {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

/**
 * Runs `npm <args>` in each published package, dependencies first (npm's own --workspace runs them in the
 * workspaces' order); stops at the first failure.
 *
 * @param {readonly string[]} args
 */
function npmInEach(args) {
  for (const { name, dir } of publishedPackages()) {
    process.stderr.write(`[packages] ${name}: npm ${args.join(' ')}\n`);
    const result = spawnSync('npm', args, { cwd: dir, stdio: 'inherit' });
    if (result.status !== 0) {
      process.stderr.write(`[packages] npm ${args[0]} of ${name} failed (exit code ${result.status}); its output is above.\n`);
      process.exit(result.status ?? 1);
    }
  }
}

function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'pack') {
    const [dir, ...extra] = rest;
    if (!dir || dir.startsWith('-') || extra.length > 0) usage('pack:packages needs one argument: the folder to write the tarballs to.');
    // npm run changes to the repository root; a relative folder means the one the command was typed in
    const destination = resolve(process.env.INIT_CWD ?? process.cwd(), dir);
    mkdirSync(destination, { recursive: true });
    npmInEach(['pack', '--pack-destination', destination]);
  } else if (command === 'publish') {
    const registry = rest.findIndex((arg) => arg === '--registry' || arg.startsWith('--registry='));
    if (registry === -1 || (rest[registry] === '--registry' && !/^https?:\/\//.test(rest[registry + 1] ?? '')))
      usage('publish:packages needs --registry <url>: the registry to publish to (e.g. your Verdaccio, or https://registry.npmjs.org/).');
    npmInEach(['publish', ...rest]);
  } else usage(`Unknown command "${command ?? ''}".`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
