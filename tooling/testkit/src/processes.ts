// Starting and stopping the system's processes: one way for `npm start`, `npm run preview`, the
// browser tests and the benchmark. No dependencies beyond Node's own modules.
//
// Every child runs in its own process group (`detached`), and stop() signals the whole group, so
// `npm → sh → webpack → workers` ends together and nothing is left listening on a port.
//
// Nothing outlives its owner (decisions/0107): every group started here is on the leash of a reaper
// (reaper.ts), which stops it when this process ends without stopping it — killed, crashed, or exited
// past its hooks. Where the run has a registry (GATEHOUSE_RUN_DIR, made by `npm test`), each group is also
// written there with the command and who started it (GATEHOUSE_OWNER: a spec's title), so the run's end can
// list anything left behind, and a port found taken can name the spec that left it.

import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChildProcess, SpawnOptions } from 'node:child_process';

let reaper: ChildProcess | null = null;

/**
 * How to run reaper.ts beside this module: compiled (dist/reaper.js, plain Node), or from the source where this
 * module runs from its source (jest, tsx) — through tsx, as Node 20 cannot run TypeScript itself (decisions/0113).
 */
function reaperScript(): string[] {
  if (!__filename.endsWith('.ts')) return [join(__dirname, 'reaper.js')];
  return ['--import', pathToFileURL(require.resolve('tsx')).href, join(__dirname, 'reaper.ts')];
}

/** The reaper of this process, started the first time a group is put on its leash. */
function reaperStdin() {
  if (reaper === null || reaper.stdin === null || reaper.stdin.destroyed) {
    const self = process.argv.slice(1, 3).join(' ').slice(0, 200);
    reaper = spawn(process.execPath, [...reaperScript(), String(process.pid), self], {
      detached: true,
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    // It must not keep this process alive, nor fail it: a reaper that cannot start leaves the hooks below.
    reaper.unref();
    reaper.on('error', () => {});
    reaper.stdin?.on('error', () => {});
    (reaper.stdin as { unref?: () => void } | null)?.unref?.();
  }
  return reaper.stdin;
}

/** The pid of this process's reaper, if it has one. */
function reaperPid(): number | undefined {
  return reaper?.pid;
}

/**
 * Puts the process group `pgid` on this process's leash (`+`) or takes it off (`-`), and keeps the run's
 * registry in step.
 */
function leash(change: '+' | '-', pgid: number, command: string = '') {
  reaperStdin()?.write(`${change}${pgid}\n`);
  const registry = process.env.GATEHOUSE_RUN_DIR;
  if (!registry) return;
  const file = join(registry, `${pgid}.json`);
  try {
    if (change === '-') rmSync(file, { force: true });
    else
      writeFileSync(
        file,
        JSON.stringify({
          pgid,
          command: command.slice(0, 300),
          owner: { pid: process.pid, command: process.argv.slice(1).join(' ').slice(0, 300), label: process.env.GATEHOUSE_OWNER ?? null },
          startedAt: new Date().toISOString(),
        }),
      );
  } catch {
    // a registry folder removed under a late process: nothing to keep in step
  }
}

/**
 * Whether any process of the group `pgid` still runs. A zombie (ended, not yet waited for by its new parent) does
 * not count: on Linux the group's members are read from /proc; elsewhere any member counts.
 */
function groupAlive(pgid: number) {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  return entries.some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[2]) === pgid && fields[0] !== 'Z';
    } catch {
      return false;
    }
  });
}

export interface ManagedProcess {
  child: ChildProcess;
  /** resolves when it has exited */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM to its process group, SIGKILL after `graceMs` (default 5000) */
  stop: (graceMs?: number) => Promise<void>;
}

/**
 * Starts `command args` in its own process group.
 *
 * @param options `detached` is always true
 */
function startProcess(command: string, args: readonly string[], options: SpawnOptions = {}): ManagedProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const pgid = child.pid;
  if (pgid !== undefined) leash('+', pgid, [command, ...args].join(' '));
  const exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A command that cannot be started at all (ENOENT) never emits 'exit'.
    child.once('error', () => resolve({ code: child.exitCode ?? 127, signal: null }));
  });
  // Off the leash once the whole group is gone; a group whose leader exited but whose members run on (a
  // worker whose parent died) stays on it, for stop() or the reaper.
  void exited.then(() => {
    if (pgid !== undefined && !groupAlive(pgid)) leash('-', pgid);
  });
  return {
    child,
    exited,
    stop: async (graceMs) => {
      await stopProcess(child, graceMs);
      if (pgid === undefined) return;
      // What is left of the group once its leader has gone (a child that ignored SIGTERM) is killed.
      const deadline = Date.now() + 1000;
      while (groupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      killGroup(pgid, 'SIGKILL');
      if (!groupAlive(pgid)) leash('-', pgid);
    },
  };
}

/** Whether `child` is still running. */
function isRunning(child: ChildProcess) {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/**
 * Sends `signal` to the process group of `child` (started detached), or to the child alone if it has none.
 */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (!isRunning(child) || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Sends `signal` to the process group `pid` leads, even after its leader has exited (what is left of the group:
 * a worker whose parent was killed). Does nothing when the group is gone.
 */
function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // no process left in the group
  }
}

/**
 * SIGTERM to the child's process group; SIGKILL once `graceMs` have passed. Resolves when it has exited.
 */
function stopProcess(child: ChildProcess, graceMs: number = 5000): Promise<void> {
  if (!isRunning(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signalGroup(child, 'SIGKILL');
      resolve();
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    signalGroup(child, 'SIGTERM');
  });
}

/**
 * Kills every listed child's process group with SIGKILL when this process exits without stopping them
 * (an uncaught error, process.exit()). Returns the function that removes the hook again.
 */
function killOnExit(children: () => Iterable<ChildProcess>): () => void {
  const hook = () => {
    for (const child of children()) signalGroup(child, 'SIGKILL');
  };
  process.on('exit', hook);
  return () => process.off('exit', hook);
}

/**
 * Calls `stop` once this process is orphaned — its parent ended and it was handed to another (init, a
 * subreaper) — which is how a server script (`npm start`, `npm run preview`) learns that whoever started it (a
 * test runner, a worker, a terminal's npm) died without stopping it. Checks once a second; keeps nothing alive.
 */
function stopWhenOrphaned(stop: () => void) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, 1000);
  timer.unref();
}

/**
 * Whether `url` answers with a status `accept` likes (default: 2xx) within `timeoutMs`.
 */
async function answers(
  url: string,
  {
    timeoutMs = 2000,
    accept = (status) => status >= 200 && status < 300,
  }: { timeoutMs?: number; accept?: (status: number) => boolean } = {},
): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.body?.cancel();
    return accept(response.status);
  } catch {
    return false;
  }
}

/**
 * An `accept` for answers() and waitForUrl(): anything but a server error counts as answering (a 404 of a
 * deliberately missing file, a redirect to the sign-in page).
 */
function notAServerError(status: number) {
  return status < 500;
}

/**
 * Waits until `url` answers (see answers()). Fails early, naming `name`, when `child` exits first,
 * and after `timeoutMs` with a message that says which address never answered.
 */
async function waitForUrl(
  url: string,
  {
    name = url,
    timeoutMs = 60_000,
    child,
    intervalMs = 200,
    accept,
  }: {
    name?: string;
    timeoutMs?: number;
    child?: ChildProcess;
    intervalMs?: number;
    accept?: (status: number) => boolean;
  } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && !isRunning(child)) {
      throw new Error(`${name} exited (${child.signalCode ?? `exit code ${child.exitCode}`}) before answering at ${url}.`);
    }
    if (await answers(url, { timeoutMs: Math.min(2000, Math.max(250, deadline - Date.now())), ...(accept ? { accept } : {}) })) return;
    if (Date.now() > deadline) throw new Error(`${name} did not answer at ${url} within ${Math.round(timeoutMs / 1000)} s.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export {
  groupAlive,
  reaperPid,
  stopWhenOrphaned,
  startProcess,
  isRunning,
  signalGroup,
  killGroup,
  stopProcess,
  killOnExit,
  answers,
  notAServerError,
  waitForUrl,
};
