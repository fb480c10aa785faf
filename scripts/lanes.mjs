// Running test suites in lanes, side by side (decisions/0080, 0081), shared by `npm test` (scripts/test.mjs) and
// `npm run test:keycloak` (scripts/test-keycloak.mjs): the suites of one lane run one after the other, the lanes at
// once; each output line starts with its suite's name while two lanes run; a summary gives each suite's result, its
// time and when it started.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killOnExit } from '@gatehouse/testkit/processes';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * @typedef {{ name: string, cwd: string, args: string[], command?: string }} Command
 * @typedef {{ code: number, counts: string[], startUps: string[], ms: number }} Outcome
 */

/** @param {number} ms */
export function seconds(ms) {
  return `${(ms / 1000).toFixed(0)} s`;
}

/**
 * Runs one suite's command with its output passed through; resolves to its exit code, the closing counts of
 * Playwright, jest and node --test ("27 passed", "1 skipped") and the start-ups of the Keycloaks the suite started
 * itself ("https://sso.idp-vendor.test:41233: 9.1 s", printed by e2e/https/support/identityProvider.ts).
 *
 * @param {Command} suite
 * @param {{ env?: NodeJS.ProcessEnv, extraArgs?: string[], prefix?: string }} [options]
 *   `prefix` goes before each line of its output, stdout and stderr (the suite's name while two lanes run; jest
 *   writes its results to stderr).
 * @returns {Promise<Outcome>}
 */
export function runSuite(suite, { env = process.env, extraArgs = [], prefix = '' } = {}) {
  const started = Date.now();
  const child = spawn(suite.command ?? 'npx', [...suite.args, ...extraArgs], {
    cwd: suite.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const stopChild = killOnExit(() => [child]);
  /** @type {string[]} */
  const counts = [];
  /** @type {string[]} */
  const startUps = [];
  /** @param {NodeJS.ReadableStream | null} stream @param {NodeJS.WriteStream} out */
  const follow = (stream, out) => {
    let partial = '';
    stream?.on('data', (chunk) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      if (lines.length > 0) out.write(lines.map((line) => `${prefix}${line}\n`).join(''));
      for (const line of lines) {
        const startUp = /^\[keycloak\] (\S+): ready in (\S+ s)/.exec(line);
        if (startUp) startUps.push(`${startUp[1]}: ${startUp[2]}`);
        const count = /^\s+(\d+ (?:passed|failed|skipped|flaky|did not run|interrupted))\b/.exec(line)?.[1];
        if (count) counts.push(count);
        const nodeCount = /^(?:ℹ|#) (pass|fail|skipped) (\d+)$/.exec(line);
        if (nodeCount) counts.push(`${nodeCount[2]} ${{ pass: 'passed', fail: 'failed', skipped: 'skipped' }[nodeCount[1] ?? 'pass']}`);
        const jestCount = /^Tests:\s+(.*\d+ total)/.exec(line);
        if (jestCount?.[1]) counts.push(jestCount[1]);
      }
    });
    return () => partial && out.write(`${prefix}${partial}\n`);
  };
  const flushOut = follow(child.stdout, process.stdout);
  const flushErr = follow(child.stderr, process.stderr);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      flushOut();
      flushErr();
      stopChild();
      resolve({ code: code ?? (signal ? 1 : 0), counts, startUps, ms: Date.now() - started });
    });
  });
}

/**
 * Runs each lane's suites one after the other, the lanes at once, and resolves when all are done.
 *
 * @template {{ name: string }} S
 * @param {S[][]} lanes
 * @param {(suite: S, prefix: string) => Promise<void>} runOne runs one suite; `prefix` is `[name] ` while two lanes run
 */
export async function runLanes(lanes, runOne) {
  await Promise.all(
    lanes.map(async (lane) => {
      for (const suite of lane) await runOne(suite, lanes.length > 1 ? `[${suite.name}] ` : '');
    }),
  );
}

/**
 * The production builds, made now if a source is newer (e2e/production/support/globalSetup.ts), once before the
 * lanes when two lanes test them (so two lanes never make them at once).
 *
 * @param {string} who named in its output
 * @returns {Promise<void>}
 */
export function ensureBuilds(who) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('./production/support/globalSetup.ts').then((m) => (m.ensureProductionBuilds ?? m.default.ensureProductionBuilds)(${JSON.stringify(who)}))`,
      ],
      { cwd: join(ROOT, 'e2e'), stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error('making the production builds failed (above)'))));
  });
}
