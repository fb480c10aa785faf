#!/usr/bin/env node
// The provider-cost part of `npm run bench` on its own, with builds made before (by a bench run, or by another
// checkout: --builds <dir> holding <app>/dist): what signed-in browsers cost Keycloak (bench/lib/providerCost.mjs).
//
//   node bench/provider-cost.mjs [--builds bench/.work/builds] [--window 600] [--no-keycloak-cpu] [--out file.json]

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK_DIR = join(REPO_ROOT, 'bench/.work');
const { values: args } = parseArgs({
  options: {
    builds: { type: 'string', default: join(WORK_DIR, 'builds') },
    window: { type: 'string', default: '600' },
    'no-keycloak-cpu': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

// The preflight of `npm run bench` for this part alone (Keycloak, wrk unless --no-keycloak-cpu, nginx, Chromium),
// before anything from node_modules is loaded (the imports below).
const preflightArgs = ['bench', '--skip-cross-site', '--skip-keycloak', ...(args['no-keycloak-cpu'] ? ['--no-keycloak-cpu'] : [])];
const preflight = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/preflight.mjs'), ...preflightArgs], { stdio: 'inherit' });
if (preflight.status !== 0) process.exit(preflight.status ?? 1);

const { APPS, BASELINE_APPS } = await import('./lib/build.mjs');
const { measureProviderCost, providerCostRatio, providerCostTable } = await import('./lib/providerCost.mjs');
const { round } = await import('./lib/stats.mjs');

const log = (/** @type {string} */ message) => process.stderr.write(`[bench] ${message}\n`);

const startedAt = Date.now();
mkdirSync(WORK_DIR, { recursive: true });
const dists = Object.fromEntries([...APPS, ...BASELINE_APPS].map((app) => [app.name, join(resolve(args.builds), app.name, 'dist')]));
for (const dir of Object.values(dists))
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`bench: no build in ${dir}; run npm run bench first, or give --builds`);
const cost = await measureProviderCost({
  repoRoot: REPO_ROOT,
  workDir: WORK_DIR,
  dists,
  log,
  windowSeconds: Number(args.window),
  keycloakCpu: !args['no-keycloak-cpu'],
});
console.log(providerCostTable(cost));
if (args.out) {
  const output = {
    ...cost.gatehouse,
    baseline: cost.baseline,
    ratio: providerCostRatio(cost.gatehouse, cost.baseline),
    details: { provider_cost: cost.details },
    run: {
      date: new Date().toISOString(),
      seconds: round((Date.now() - startedAt) / 1000, 0),
      loadavg: os.loadavg().map((l) => round(l, 1)),
    },
  };
  writeFileSync(args.out, `${JSON.stringify(output, null, 2)}\n`);
  log(`wrote ${args.out}`);
}
