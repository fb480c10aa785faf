// The reaper: stops what a process started when that process ends without stopping it itself — a Playwright
// worker killed after a fatal error, a script killed with SIGKILL, a test runner that crashed (decisions/0107).
//
// processes.ts starts one reaper per owning process, the first time the owner starts a process group, as
// `node reaper.js <owner pid>` in a session of its own (so a Ctrl-C to the owner's terminal does not reach it).
// The owner writes to the reaper's stdin one line per change: `+<pgid>` when it has started a process group,
// `-<pgid>` when that group is gone. The kernel closes the pipe when the owner ends, however it ends (exit, crash,
// SIGKILL); the reaper then sends SIGTERM to every group still listed, SIGKILL after GRACE_MS to what is left,
// removes their entries from the run's registry (processes.ts, GATEHOUSE_RUN_DIR) and exits. An owner that
// stopped everything itself leaves nothing listed: the reaper exits without a word.
//
// Plain Node, no dependencies, as processes.ts.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { groupAlive as alive } from './processes';

const GRACE_MS = 3000;
const owner = process.argv[2] ?? '?';
const ownerCommand = process.argv[3] ?? '';

const groups: Set<number> = new Set();

// Only the owner's end ends the reaper: a signal to its (former) terminal or session is not that.
for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM', 'SIGPIPE'] as const) process.on(signal, () => {});

function signal(pgid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone already
  }
}

let rest = '';
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk.toString()).split('\n');
  rest = lines.pop() ?? '';
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line[0] === '+') groups.add(pgid);
    else if (line[0] === '-') groups.delete(pgid);
  }
});
// 'error' too: an owner killed mid-write may leave the pipe broken rather than ended.
process.stdin.once('error', () => void reap());
process.stdin.once('end', () => void reap());

let reaping = false;
async function reap() {
  if (reaping) return;
  reaping = true;
  const left = [...groups].filter(alive);
  if (left.length > 0) {
    process.stderr.write(
      `[reaper] pid ${owner}${ownerCommand ? ` (${ownerCommand})` : ''} ended without stopping what it started; stopping process group${left.length === 1 ? '' : 's'} ${left.join(', ')}\n`,
    );
    for (const pgid of left) signal(pgid, 'SIGTERM');
    const deadline = Date.now() + GRACE_MS;
    while (left.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const pgid of left) if (alive(pgid)) signal(pgid, 'SIGKILL');
    const killed = Date.now() + 1000;
    while (left.some(alive) && Date.now() < killed) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const registry = process.env.GATEHOUSE_RUN_DIR;
  // a group still there stays in the registry, for the run's end to report
  if (registry) for (const pgid of groups) if (!alive(pgid)) rmSync(join(registry, `${pgid}.json`), { force: true });
  process.exit(0);
}
