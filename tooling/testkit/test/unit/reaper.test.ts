// Nothing outlives its owner (decisions/0107): a process group started with startProcess is stopped by the
// owner's reaper when the owner is killed with SIGKILL (no hook of its own runs), its entry leaves the run's
// registry; an owner that stops its groups itself leaves the reaper nothing to do; a server script whose parent
// died stops by itself; the run's end lists (and stops) what is left; and a port a killed owner's group holds is
// waited for while the reaper frees it, or named with the spec that left it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupAlive, reaperPid, startProcess } from '../../src/processes';
import { leftBehind, takenPortProblem } from '../../src/leftovers';
import { portTaken } from '../../src/portOwner';
import { freePort } from '../../src/ports';
import { WITH_TSX } from './tsx';

// A behaviour that never happens fails the test instead of hanging it (hooks included).
jest.setTimeout(60_000);
const OWNER = join(__dirname, 'fixtures/owner.ts');

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A run registry of its own for one test. */
function registry() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-run-test-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function killGroupLater(pgid: number) {
  cleanups.push(() => {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  });
}

/**
 * Starts the owner fixture and resolves with its process and the listener's pgid once the listener listens.
 */
async function startOwner({ runDir, port, env = {} }: { runDir: string; port: number; env?: NodeJS.ProcessEnv }) {
  const owner = spawn(process.execPath, [...WITH_TSX, OWNER], {
    env: { ...process.env, GATEHOUSE_RUN_DIR: runDir, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => owner.kill('SIGKILL'));
  let stderr = '';
  owner.stderr?.on('data', (chunk) => (stderr += chunk));
  const line = await new Promise<RegExpExecArray>((resolve, reject) => {
    owner.stdout?.on('data', (chunk) => {
      const found = /^(started|stopped) (\d+)$/m.exec(String(chunk));
      if (found) resolve(found);
    });
    owner.once('exit', (code) => reject(new Error(`the owner exited (${code}) before its listener listened: ${stderr}`)));
  });
  const pgid = Number(line[2]);
  killGroupLater(pgid);
  return { owner, pgid, stderr: () => stderr };
}

/** Resolves true once `check()` holds, false after `ms`. */
async function within(check: () => boolean | Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

test('an owner killed with SIGKILL: its reaper stops the group it started and takes it off the registry', async () => {
  const runDir = registry();
  const port = await freePort();
  const { owner, pgid, stderr } = await startOwner({ runDir, port });
  assert.equal(await portTaken(port), true);
  expect(readdirSync(runDir)).toEqual([`${pgid}.json`]);

  owner.kill('SIGKILL');
  assert.equal(await within(() => !groupAlive(pgid), 5000), true, 'the listener of the killed owner is still running after 5 s');
  assert.equal(await portTaken(port), false);
  assert.equal(await within(() => readdirSync(runDir).length === 0, 2000), true, `registry still lists ${readdirSync(runDir)}`);
  assert.match(
    stderr(),
    new RegExp(`\\[reaper\\] pid ${owner.pid} \\(.*owner\\.ts\\) ended without stopping what it started; stopping process group ${pgid}`),
  );
});

test('an owner that stops what it started: the registry is empty and the reaper says nothing', async () => {
  const runDir = registry();
  const port = await freePort();
  const { owner, pgid, stderr } = await startOwner({ runDir, port, env: { STOP_FIRST: '1' } });
  await new Promise((resolve) => (owner.exitCode === null ? owner.once('exit', resolve) : resolve(undefined)));
  assert.equal(groupAlive(pgid), false);
  expect(readdirSync(runDir)).toEqual([]);
  // the reaper has had its pipe closed: give it the time it would take to speak
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.doesNotMatch(stderr(), /\[reaper\]/);
});

test('a server script whose parent died stops by itself (stopWhenOrphaned)', async () => {
  const parent = spawn(process.execPath, [...WITH_TSX, join(__dirname, 'fixtures/orphaned.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => parent.kill('SIGKILL'));
  // the child's pid, and its "watching": it reads its parent when it starts watching, which takes a while where
  // the machine is busy (it starts through tsx), so the parent dies only after that
  let output = '';
  const child = Number(
    await new Promise((resolve) =>
      parent.stdout?.on('data', (chunk) => {
        output += String(chunk);
        const pid = /child (\d+)/.exec(output)?.[1];
        if (pid && output.includes('watching')) resolve(pid);
      }),
    ),
  );
  killGroupLater(child);
  const running = () => {
    try {
      process.kill(child, 0);
      return true;
    } catch {
      return false;
    }
  };
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(running(), true, 'the child stopped while its parent still ran');
  parent.kill('SIGKILL');
  assert.equal(await within(() => !running(), 5000), true, 'the orphaned child still runs 5 s after its parent died');
});

test("the run's end lists a registered group and a process of the run still running, then stops them", async () => {
  const runDir = registry();
  const saved = process.env.GATEHOUSE_RUN_DIR;
  process.env.GATEHOUSE_RUN_DIR = runDir;
  process.env.GATEHOUSE_OWNER = 'leak.spec.ts › leaks on purpose';
  let leaked;
  try {
    // the environment given as a child of `npm test` inherits it: jest's process.env is the test's own copy, which
    // a child started without `env` does not see
    leaked = startProcess('sleep', ['300'], { stdio: 'ignore', env: { ...process.env } });
  } finally {
    if (saved === undefined) delete process.env.GATEHOUSE_RUN_DIR;
    else process.env.GATEHOUSE_RUN_DIR = saved;
    delete process.env.GATEHOUSE_OWNER;
  }
  const pgid = leaked.child.pid as number;
  killGroupLater(pgid);
  // (this process's reaper, started with the variable set, is this process's, as `npm test`'s is)
  const except = new Set([process.pid, reaperPid() as number]);
  const lines = await leftBehind({ runDir, freeAtStart: [], except, waitMs: 300 });
  expect(lines).toEqual([
    `process ${pgid} still runs: sleep 300`,
    `process group ${pgid} (sleep 300), started by leak.spec.ts › leaks on purpose, still runs: ${pgid} sleep 300`,
  ]);
  assert.equal(await within(() => !groupAlive(pgid), 3000), true, 'leftBehind did not stop what it found');
  expect(await leftBehind({ runDir, freeAtStart: [], except, waitMs: 0 })).toEqual([]);
});

test('a fixed port still bound at the end that was free at the start is listed', async () => {
  const runDir = registry();
  const port = await freePort();
  const listener = startProcess(process.execPath, [join(__dirname, 'fixtures/listen.cjs')], {
    env: { ...process.env, PORT: String(port), GATEHOUSE_RUN_DIR: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  killGroupLater(listener.child.pid as number);
  await within(() => portTaken(port), 5000);
  const lines = await leftBehind({ runDir, freeAtStart: [port], waitMs: 0 });
  expect(lines).toEqual([
    `port ${port} is still bound, by pid ${listener.child.pid} (${process.execPath} ${join(__dirname, 'fixtures/listen.cjs')})`,
  ]);
});

test('a port held by a killed owner’s group is waited for while the reaper frees it', async () => {
  const runDir = registry();
  const port = await freePort();
  const { owner } = await startOwner({ runDir, port });
  const saved = process.env.GATEHOUSE_RUN_DIR;
  process.env.GATEHOUSE_RUN_DIR = runDir;
  try {
    owner.kill('SIGKILL');
    assert.equal(await takenPortProblem(port, 'the shell', { waitMs: 8000 }), null);
  } finally {
    if (saved === undefined) delete process.env.GATEHOUSE_RUN_DIR;
    else process.env.GATEHOUSE_RUN_DIR = saved;
  }
});

test('a port the run’s own server still holds is named with who started it', async () => {
  const runDir = registry();
  const port = await freePort();
  const { pgid } = await startOwner({ runDir, port, env: { GATEHOUSE_OWNER: 'production/a.spec.ts › a test' } });
  const saved = process.env.GATEHOUSE_RUN_DIR;
  process.env.GATEHOUSE_RUN_DIR = runDir;
  try {
    const problem = await takenPortProblem(port, 'the shell', { waitMs: 300 });
    assert.match(
      problem ?? '',
      new RegExp(
        `^port ${port} \\(the shell\\) is taken by pid ${pgid} \\(.*listen\\.cjs\\); stop it .* It is process group ${pgid} \\(.*listen\\.cjs\\), started by production/a\\.spec\\.ts › a test, which did not stop it\\.$`,
      ),
    );
  } finally {
    if (saved === undefined) delete process.env.GATEHOUSE_RUN_DIR;
    else process.env.GATEHOUSE_RUN_DIR = saved;
  }
});
