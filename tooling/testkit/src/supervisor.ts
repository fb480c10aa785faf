// Keeps one app of `npm start` running: an app that stops or crashes is started again after a pause that
// doubles (1 s, 2 s, 4 s … at most 30 s) and starts over once the app has come up (answered at its ready address,
// or stayed up a minute); one that keeps stopping before it comes up is given up on, with its last output, while
// everything else keeps running (decisions/0048). Plain Node, no dependencies, like processes.ts.

import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { portOwners } from './portOwner';
import { killGroup, startProcess, stopProcess, stopWhenOrphaned, waitForUrl } from './processes';
import type { SpawnOptions } from 'node:child_process';
import type { PortOwner } from './portOwner';
import type { ManagedProcess } from './processes';

export interface SupervisorOptions {
  /** one line per event: stopped and restarting, given up */
  log: (line: string) => void;
  /** each line the app prints */
  output?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** the first pause before a restart (default 1000) */
  initialDelayMs?: number;
  /** the longest pause (default 30000) */
  maxDelayMs?: number;
  /**
   * up this long, or answering at `readyUrl`, counts as running: the pause and the count
   * start over after it stops (default 60000)
   */
  stableMs?: number;
  /**
   * stops in a row, each before it counted as running, after which it is not
   * restarted (default 5)
   */
  giveUpAfter?: number;
  /** how many of its last lines a give-up shows (default 20) */
  tailLines?: number;
  /** what to do once it was given up on */
  giveUpHint?: string;
  /**
   * answers (2xx) once the app is up: a stop after that is not a failure to start. An
   * answer from a process outside the app's process group (on Linux, where the port's owner can be read) does not count
   */
  readyUrl?: string;
  /** called each time it has come up at `readyUrl` */
  onReady?: (restarted: boolean) => void;
  /** stdout and stderr are always piped */
  spawnOptions?: SpawnOptions;
}

export interface Supervised {
  name: string;
  state: () => 'running' | 'waiting' | 'given up' | 'stopped';
  /** the running process, if any */
  current: () => ManagedProcess | null;
  /** resolves when it has been given up on */
  givenUp: Promise<void>;
  /** stops it for good (its process group: SIGTERM, then SIGKILL) */
  stop: (graceMs?: number) => Promise<void>;
}

/** "1 s", "0.05 s" */
function seconds(ms: number) {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

/**
 * "exit code 1", "SIGKILL", "exit code 137, from SIGKILL" (npm and sh exit with 128 + n when what they ran got signal n).
 */
function describeExit({ code, signal }: { code: number | null; signal: NodeJS.Signals | null }) {
  if (signal) return signal;
  const from = code !== null && code > 128 ? Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0] : undefined;
  return from ? `exit code ${code}, from ${from}` : `exit code ${code}`;
}

/** The process group of `pid` (Linux: /proc/<pid>/stat), or null. */
function processGroupOf(pid: number) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ")"
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

/**
 * A process outside the app's own process group that holds the port of `readyUrl`, or null (none, or this system
 * cannot tell: then the answer counts). A foreign server answering the app's ready address is not the app.
 *
 * @param group the app's process group (its leader's pid)
 */
function foreignOwner(readyUrl: string, group: number | undefined): PortOwner | null {
  const url = new URL(readyUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const owners = portOwners(port);
  if (!owners || owners.length === 0 || group === undefined) return null;
  if (owners.some((owner) => processGroupOf(owner.pid) === group)) return null;
  return owners[0] ?? null;
}

/**
 * Runs `command args` (in its own process group, see processes.ts) and keeps it running.
 *
 * @param name what the lines call it
 */
function supervise(name: string, command: string, args: readonly string[], options: SupervisorOptions): Supervised {
  const { log, output, initialDelayMs = 1000, maxDelayMs = 30_000, stableMs = 60_000, giveUpAfter = 5, tailLines = 20 } = options;
  const tail: string[] = [];
  let current: ManagedProcess | null = null;
  let pending: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let gaveUp = false;
  let quickStops = 0;
  let markGivenUp: () => void = (): void => {};
  const givenUp: Promise<void> = new Promise((resolve) => (markGivenUp = resolve));

  function readLines(stream: NodeJS.ReadableStream | null, kind: 'stdout' | 'stderr') {
    let rest = '';
    stream?.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > tailLines) tail.shift();
        output?.(line, kind);
      }
    });
  }

  function run(restart: boolean) {
    pending = null;
    const startedAt = Date.now();
    const started = startProcess(command, args, { ...options.spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
    current = started;
    readLines(started.child.stdout, 'stdout');
    readLines(started.child.stderr, 'stderr');
    let answered = false;
    if (options.readyUrl) {
      const readyUrl = options.readyUrl;
      void waitForUrl(readyUrl, { child: started.child, timeoutMs: 3_600_000, intervalMs: 500 }).then(
        () => {
          const foreign = foreignOwner(readyUrl, started.child.pid);
          if (foreign) {
            log(
              `${name}: ${readyUrl} is answered by pid ${foreign.pid} (${foreign.command}), not by ${name}; not counted as up. Stop that process (or free the port) so ${name} can listen there.`,
            );
            return;
          }
          answered = true;
          if (current === started) options.onReady?.(restart);
        },
        () => {}, // it stopped before answering: the exit handler below says so
      );
    }
    void started.exited.then((exit) => {
      // What is left of its group (a worker whose parent was killed) would hold the port the next start needs.
      if (started.child.pid !== undefined) killGroup(started.child.pid, 'SIGKILL');
      if (current === started) current = null;
      if (stopped) return;
      quickStops = answered || Date.now() - startedAt >= stableMs ? 1 : quickStops + 1;
      if (quickStops >= giveUpAfter) return giveUp(exit);
      const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** (quickStops - 1));
      log(`${name} stopped (${describeExit(exit)}); restarting in ${seconds(delay)} — attempt ${quickStops + 1}`);
      pending = setTimeout(run, delay, true);
    });
  }

  function giveUp(exit: { code: number | null; signal: NodeJS.Signals | null }) {
    gaveUp = true;
    log(
      [
        `${name} stopped (${describeExit(exit)}) ${quickStops} time${quickStops === 1 ? '' : 's'} in a row, each within ${seconds(stableMs)} of starting${options.readyUrl ? ` and before it answered at ${options.readyUrl}` : ''}; not restarting it. Everything else keeps running.`,
        `Its last output:`,
        ...(tail.length > 0 ? tail.map((line) => `  | ${line}`) : ['  (none)']),
        options.giveUpHint ?? `Fix what its output says, then start ${name} again.`,
      ].join('\n'),
    );
    markGivenUp();
  }

  run(false);
  return {
    name,
    state: () => (stopped ? 'stopped' : gaveUp ? 'given up' : current ? 'running' : 'waiting'),
    current: () => current,
    givenUp,
    async stop(graceMs) {
      stopped = true;
      if (pending) clearTimeout(pending);
      const last = current;
      if (!last) return;
      await stopProcess(last.child, graceMs);
      if (last.child.pid !== undefined) killGroup(last.child.pid, 'SIGKILL');
    },
  };
}

/**
 * On SIGINT (Ctrl-C), SIGTERM (what Playwright's webServer sends) and SIGHUP (the terminal closed): stops every
 * supervised app's process group (SIGTERM, SIGKILL after `graceMs`), then exits with code 0. A second signal
 * while stopping changes nothing; the SIGKILL comes anyway.
 *
 * @returns stops everything the same way and exits with `code`
 */
function stopOnSignals(
  apps: () => Iterable<Supervised>,
  { graceMs = 3000, beforeExit }: { graceMs?: number; beforeExit?: () => void } = {},
): (code?: number) => Promise<never> {
  let stopping: Promise<void> | null = null;
  const stopAll = async (code: number): Promise<never> => {
    stopping ??= Promise.all([...apps()].map((app) => app.stop(graceMs))).then(() => undefined);
    await stopping;
    beforeExit?.();
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));
  // Whoever started this process ended without stopping it (a test runner killed, a terminal's npm gone).
  stopWhenOrphaned(() => void stopAll(1));
  // An uncaught error or a process.exit() elsewhere: nothing may be left running either.
  process.on('exit', () => {
    for (const app of apps()) {
      const pid = app.current()?.child.pid;
      if (pid !== undefined) killGroup(pid, 'SIGKILL');
    }
  });
  return (code = 0) => stopAll(code);
}

export { supervise, stopOnSignals };
