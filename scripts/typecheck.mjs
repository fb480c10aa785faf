#!/usr/bin/env node
// `npm run typecheck`: every package in one `tsc -b` over the project references of the root tsconfig.json
// (typecheck/*.json, each one extending a package's own tsconfig.json). A package that other packages import is
// checked once and they read its declarations, instead of each program checking its sources again; tsc keeps
// what it checked in node_modules/.cache/typecheck and, run again, checks only what changed (`npm ci` starts
// afresh; `npm run typecheck -- --force` checks everything).
//
// A workspace with a tsconfig.json that no typecheck/*.json extends (a remote just made by `npm run new-remote`)
// is still checked, on its own with `tsc -p <dir> --noEmit` as before, and named, so it can join the build.
//
//   npm run typecheck                     everything (arguments go to `tsc -b`: --force, --verbose)
//   npm run typecheck -w <package>        one package on its own (its `tsc -p . --noEmit`)

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TYPECHECK = join(ROOT, 'typecheck');

/** The workspace folders of the root package.json (a folder, or every folder of one: `tooling/*`). */
function workspaces() {
  /** @type {{ workspaces: string[] }} */
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return root.workspaces
    .flatMap((pattern) =>
      pattern.endsWith('/*') ? readdirSync(join(ROOT, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -1)}${name}`) : [pattern],
    )
    .filter((dir) => existsSync(join(ROOT, dir, 'package.json')));
}

const PROJECTS = readdirSync(TYPECHECK).filter((name) => name.endsWith('.json'));

/** The tsconfig.json files that a project of typecheck/ extends. */
function coveredConfigs() {
  /** @type {Set<string>} */
  const covered = new Set();
  for (const name of PROJECTS) {
    /** @type {{ extends?: string }} */
    const project = JSON.parse(readFileSync(join(TYPECHECK, name), 'utf8'));
    if (project.extends) covered.add(resolve(TYPECHECK, project.extends));
  }
  return covered;
}

const tsc = join(ROOT, 'node_modules/.bin/tsc');
const started = Date.now();
const build = spawnSync(tsc, ['-b', ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
let failed = build.status !== 0;

const covered = coveredConfigs();
const alone = workspaces().filter((dir) => existsSync(join(ROOT, dir, 'tsconfig.json')) && !covered.has(join(ROOT, dir, 'tsconfig.json')));
for (const dir of alone) {
  process.stderr.write(
    `[typecheck] ${dir} is not in the one build (no typecheck/*.json extends ${dir}/tsconfig.json): checking it on its own. ` +
      `To add it, copy typecheck/remote-profile.json (a remote) with its "extends" changed and name it in tsconfig.json.\n`,
  );
  const own = spawnSync(tsc, ['-p', dir, '--noEmit'], { cwd: ROOT, stdio: 'inherit' });
  if (own.status !== 0) failed = true;
}
process.stderr.write(
  `[typecheck] ${failed ? 'FAILED' : 'passed'}: tsc -b over the ${PROJECTS.length} projects of ${relative(ROOT, TYPECHECK)}/` +
    `${alone.length > 0 ? ` and ${alone.length} on its own` : ''} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
);
process.exit(failed ? 1 : 0);
