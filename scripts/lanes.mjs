// Running test suites in lanes, side by side (decisions/0080, 0081), shared by `npm test` (scripts/test.mjs) and
// `npm run test:keycloak` (scripts/test-keycloak.mjs): the suites of one lane run one after the other, the lanes at
// once; each output line starts with its suite's name while two lanes run; a summary gives each suite's result, its
// time and when it started.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundPorts, groupMembers, leftBehind } from '@gatehouse/testkit/leftovers';
import { reaperPid, startProcess } from '@gatehouse/testkit/processes';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * @typedef {{ name: string, cwd: string, args: string[], command?: string }} Command
 * @typedef {{ code: number, counts: string[], failures: string[], startUps: string[], ms: number }} Outcome
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
  // A process group of its own on this process's leash (processes.ts): whatever ends this run, the suite and
  // everything it started end with it.
  const managed = startProcess(suite.command ?? 'npx', [...suite.args, ...extraArgs], {
    cwd: suite.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  running.add(managed);
  const { child } = managed;
  /** @type {string[]} */
  const counts = [];
  /** @type {string[]} */
  const startUps = [];
  /** The tests that failed or were flaky, as the runner names them in its closing lines. @type {string[]} */
  const failures = [];
  /** Playwright lists each failed or flaky test under its count; true while such a list is being read. */
  let listing = false;
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
        if (count) listing = /failed|flaky|interrupted/.test(count);
        else if (listing && /^\s{4}\S.*›/.test(line)) failures.push(line.replace(/[\s─]+$/, '').trim());
        else if (listing) listing = false;
        // jest: "● <suite> › <test>" heads each failure; node --test (spec reporter): "✖ <test> (<ms>ms)"
        const otherFailure =
          /^\s*● (?!Console$)(.+)$/.exec(line)?.[1]?.trim() ?? /^\s*✖ (?!failing tests:)(.+?) \([\d.]+ms\)$/.exec(line)?.[1];
        if (otherFailure && !failures.includes(otherFailure)) failures.push(otherFailure);
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
    let done = false;
    const end = (/** @type {number | null} */ code, /** @type {NodeJS.Signals | null} */ signal) => {
      if (done) return;
      done = true;
      flushOut();
      flushErr();
      running.delete(managed);
      // What is left of its group (a server a worker started without a group of its own) is a leak: named here,
      // counted as a failure, and stopped.
      const pgid = child.pid;
      const left = pgid === undefined ? [] : groupMembers(pgid);
      if (left.length > 0) {
        leaks.push(...left.map(({ pid, command }) => `${suite.name} left process ${pid} running: ${command}`));
        void managed.stop(1000);
      }
      resolve({ code: code ?? (signal ? 1 : 0), counts, failures, startUps, ms: Date.now() - started });
    };
    child.once('close', end);
    // A process left holding the suite's output would keep 'close' from coming: the exit and a moment for the
    // last output are enough.
    child.once('exit', (code, signal) => setTimeout(end, 3000, code, signal).unref());
  });
}

/** The suites running now. @type {Set<import('@gatehouse/testkit/processes').ManagedProcess>} */
const running = new Set();
/** What suites left running in their own group when they ended (reported by the run's finish()). @type {string[]} */
const leaks = [];

/**
 * The fixed ports of the topologies (`npm start`, `npm run preview`, the providers): a run that ends with one of them
 * bound, which was free when it began, left a server behind.
 */
export const FIXED_PORTS = [3000, 3001, 3002, 3003, 3010, 4000, 4001, 4002, 4003, 4010, 8080, 9000];

/**
 * A registry for this run (decisions/0107): GATEHOUSE_RUN_DIR in the environment of everything the run starts, which
 * processes.ts registers each process group in. `finish()` lists what is left behind — a process of the run, a
 * registered group still running, a fixed port bound that was free at the start — and resolves to those lines
 * (empty: nothing). On SIGINT or SIGTERM the running suites are stopped (SIGTERM, then SIGKILL) before this process
 * exits with 130.
 *
 * @param {string} who the command, in what it prints
 * @param {{ onSignal?: () => Promise<void> }} [options] `onSignal`: more to stop on SIGINT or SIGTERM, after the suites
 * @returns {{ finish(): Promise<string[]> }}
 */
export function startRun(who, { onSignal } = {}) {
  const runDir = mkdtempSync(join(tmpdir(), 'gatehouse-run-'));
  process.env.GATEHOUSE_RUN_DIR = runDir;
  const freeAtStart = FIXED_PORTS.filter((port) => !boundPorts([port]).length);
  const stopAll = async (/** @type {string} */ signal) => {
    process.stderr.write(`\x1b[1m[${who}] ${signal}: stopping the running suites\x1b[0m\n`);
    await Promise.all([...running].map((managed) => managed.stop(10_000)));
    await onSignal?.();
    rmSync(runDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', () => void stopAll('SIGINT'));
  process.once('SIGTERM', () => void stopAll('SIGTERM'));
  return {
    async finish() {
      const except = new Set([process.pid, ...[reaperPid()].filter((pid) => pid !== undefined)]);
      const lines = [...leaks, ...(await leftBehind({ runDir, freeAtStart, except }))];
      if (lines.length === 0) rmSync(runDir, { recursive: true, force: true });
      return lines;
    },
  };
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
    const { child } = startProcess(
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
