// What a run left behind (decisions/0107): `npm test` and `npm run test:keycloak` give every process they start
// a run registry, GATEHOUSE_RUN_DIR, in its environment; at their end they list every process still running with
// that variable, every process group processes.ts registered there that still runs (nginx rewrites its
// environment for its process title, so only the registry sees it), and every fixed port still bound that was
// free when the run began. Linux only (/proc); elsewhere the ports alone are checked. Plain Node, no dependencies.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describePortOwner, portOwners, portTaken } from './portOwner';
import { groupAlive } from './processes';

export type Registered = { pgid: number; command: string; owner: { pid: number; command: string; label: string | null } };

function commandOf(proc: string, pid: string) {
  try {
    return readFileSync(join(proc, pid, 'cmdline'), 'utf8')
      .split('\0')
      .filter(Boolean)
      .join(' ');
  } catch {
    return '';
  }
}

/** A zombie has ended; its parent has not read its exit yet. */
function isZombie(proc: string, pid: string) {
  try {
    const stat = readFileSync(join(proc, pid, 'stat'), 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return true; // gone
  }
}

/**
 * The processes whose environment names the run registry `runDir`, but for the pids in `except`.
 */
function processesOfRun(
  runDir: string,
  { except = new Set(), proc = '/proc' }: { except?: ReadonlySet<number>; proc?: string } = {},
): Array<{ pid: number; command: string }> {
  const marker = Buffer.from(`\0GATEHOUSE_RUN_DIR=${runDir}\0`);
  const first = Buffer.from(`GATEHOUSE_RUN_DIR=${runDir}\0`);
  const found: Array<{ pid: number; command: string }> = [];
  let entries;
  try {
    entries = readdirSync(proc);
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || except.has(Number(entry))) continue;
    let environ;
    try {
      environ = readFileSync(join(proc, entry, 'environ'));
    } catch {
      continue; // gone, or another user's
    }
    if ((environ.includes(marker) || environ.subarray(0, first.length).equals(first)) && !isZombie(proc, entry))
      found.push({ pid: Number(entry), command: commandOf(proc, entry) || '(command line not readable)' });
  }
  return found;
}

/**
 * The process groups registered in `runDir` that still run.
 */
function registeredGroups(runDir: string): Registered[] {
  let files;
  try {
    files = readdirSync(runDir).filter((file) => /^\d+\.json$/.test(file));
  } catch {
    return [];
  }
  return files.flatMap((file) => {
    try {
      const entry: Registered = JSON.parse(readFileSync(join(runDir, file), 'utf8'));
      return groupAlive(entry.pgid) ? [entry] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Who started the process group of `pid`, from the registry `runDir` (the spec or script named there); null when
 * it is not this run's.
 */
function registeredOwnerOf(pid: number, runDir: string, { proc = '/proc' }: { proc?: string } = {}): Registered | null {
  try {
    const stat = readFileSync(join(proc, String(pid), 'stat'), 'utf8');
    const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    return JSON.parse(readFileSync(join(runDir, `${pgid}.json`), 'utf8'));
  } catch {
    return null;
  }
}

function describeRegistered(entry: Registered) {
  const by = entry.owner.label ?? `pid ${entry.owner.pid} (${entry.owner.command})`;
  return `process group ${entry.pgid} (${entry.command}), started by ${by}`;
}

/**
 * The processes of the group `pgid` that still run (not zombies), read from /proc.
 */
function groupMembers(pgid: number, { proc = '/proc' }: { proc?: string } = {}): Array<{ pid: number; command: string }> {
  let entries;
  try {
    entries = readdirSync(proc);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(join(proc, entry, 'stat'), 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid || fields[0] === 'Z') return [];
      return [{ pid: Number(entry), command: commandOf(proc, entry) || '(command line not readable)' }];
    } catch {
      return [];
    }
  });
}

/**
 * The fixed ports of `ports` that something listens on now.
 */
function boundPorts(ports: readonly number[]): Array<{ port: number; owners: string }> {
  return ports.flatMap((port) => {
    const owners = portOwners(port);
    if (owners !== null && owners.length === 0) return [];
    return [{ port, owners: owners === null ? '(owner not readable)' : owners.map((o) => `pid ${o.pid} (${o.command})`).join(', ') }];
  });
}

/**
 * What the run left behind, one line each: processes of the run, registered groups that still run, and fixed ports
 * bound now that were free at its start (`freeAtStart`). Waits up to `waitMs` for what is ending (a reaper stopping
 * what a killed worker left) before it counts; then kills what it found (SIGKILL, the groups whole), so that even a
 * run that fails this way leaves nothing running.
 */
async function leftBehind({
  runDir,
  freeAtStart,
  except = new Set(),
  waitMs = 8000,
}: {
  runDir: string;
  freeAtStart: readonly number[];
  except?: ReadonlySet<number>;
  waitMs?: number;
}): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const processes = processesOfRun(runDir, { except });
    const groups = registeredGroups(runDir);
    const ports = boundPorts(freeAtStart);
    const lines = [
      ...processes.map(({ pid, command }) => `process ${pid} still runs: ${command}`),
      ...groups.map(
        (entry) =>
          `${describeRegistered(entry)}, still runs: ${groupMembers(entry.pgid)
            .map((m) => `${m.pid} ${m.command}`)
            .join('; ')}`,
      ),
      ...ports.map(({ port, owners }) => `port ${port} is still bound, by ${owners}`),
    ];
    if (lines.length === 0 || Date.now() > deadline) {
      for (const entry of groups) kill(-entry.pgid);
      for (const { pid } of processes) kill(pid);
      for (const { port } of ports) for (const owner of portOwners(port) ?? []) if (!except.has(owner.pid)) kill(owner.pid);
      return lines;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** @param pid a pid, or a process group as -pgid */
function kill(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

/**
 * For a port found taken before a server starts: null once it is free, else one line saying who holds it. A holder
 * this run registered (GATEHOUSE_RUN_DIR) is being stopped by the reaper of an owner that ended — a spec whose
 * worker was killed — so this waits up to `waitMs` for it to go; if it stays, the line names the spec or script
 * that started it, so a failure stays one failure with its cause named rather than a cascade of "port taken".
 *
 * @param purpose what needs it ("the shell")
 */
async function takenPortProblem(port: number, purpose: string, { waitMs = 10_000 }: { waitMs?: number } = {}): Promise<string | null> {
  const runDir = process.env.GATEHOUSE_RUN_DIR;
  const deadline = Date.now() + waitMs;
  let entry: Registered | null = null;
  for (;;) {
    if (!(await portTaken(port))) return null;
    const owners = portOwners(port);
    const found = runDir && owners ? (owners.map((owner) => registeredOwnerOf(owner.pid, runDir)).find((e) => e !== null) ?? null) : null;
    entry = found ?? entry;
    // Waited for: a holder of this run (its owner ended, its reaper is at work), or a socket between owners (its
    // process ending as it is read).
    if ((found === null && owners !== null && owners.length > 0) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const line = describePortOwner(port, purpose);
  return entry ? `${line} It is ${describeRegistered(entry)}, which did not stop it.` : line;
}

export { takenPortProblem, groupMembers, processesOfRun, registeredGroups, registeredOwnerOf, describeRegistered, boundPorts, leftBehind };
