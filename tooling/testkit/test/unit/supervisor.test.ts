// The supervisor with real child processes: a stand-in dev server (fixtures/listen.cjs) on a real port is
// killed and comes back, one that keeps failing is given up on while another keeps answering, and stopping
// (directly or by a signal, as Ctrl-C does) leaves no process of any group listening.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { answers, waitForUrl } from '../../src/processes';
import { freePort } from '../../src/ports';
import { WITH_TSX } from './tsx';

// A behaviour that never happens fails the test instead of hanging it (hooks included).
jest.setTimeout(60_000);
import { supervise } from '../../src/supervisor';

const LISTEN = join(__dirname, 'fixtures/listen.cjs');

/** Waits until `check` holds, polling; fails naming `what` after 20 s. */
async function until(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The pid a stand-in server answers with. */
async function pidAt(port: number) {
  const text = await (await fetch(`http://127.0.0.1:${port}/`)).text();
  const match = /^ok (\d+)$/.exec(text);
  if (!match) throw new Error(`unexpected answer from :${port}: ${text}`);
  return Number(match[1]);
}

/** Whether process `pid` still exists. */
function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let started: import('../../src/supervisor').Supervised[] = [];
afterEach(async () => {
  await Promise.all(started.map((app) => app.stop(1000)));
  started = [];
});

/** Supervises a stand-in server on `port`, recording its log lines. */
function superviseServer(name: string, port: number, options: Partial<import('../../src/supervisor').SupervisorOptions> = {}) {
  const lines: string[] = [];
  const app = supervise(name, process.execPath, [LISTEN], {
    log: (line) => lines.push(line),
    initialDelayMs: 50,
    spawnOptions: { env: { ...process.env, PORT: String(port) } },
    ...options,
  });
  started.push(app);
  return { app, lines };
}

test('a killed app is started again, says so in one line, and the others keep running', async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  const { lines } = superviseServer('reports', portA);
  superviseServer('profile', portB);
  await waitForUrl(`http://127.0.0.1:${portA}/`, { timeoutMs: 20_000 });
  await waitForUrl(`http://127.0.0.1:${portB}/`, { timeoutMs: 20_000 });
  const [killed, other] = [await pidAt(portA), await pidAt(portB)];

  process.kill(killed, 'SIGKILL');

  await until(async () => (await answers(`http://127.0.0.1:${portA}/`)) && (await pidAt(portA)) !== killed, 'reports answers again');
  expect(lines).toEqual(['reports stopped (SIGKILL); restarting in 0.05 s — attempt 2']);
  assert.equal(await pidAt(portB), other, 'profile kept running, untouched');
});

test('each quick stop doubles the pause; after the last allowed one it is given up on with its last output, the rest keeps running', async () => {
  const portB = await freePort();
  const lines: string[] = [];
  const failing = supervise('reports', process.execPath, ['-e', 'console.log("config error: no entry"); process.exit(3)'], {
    log: (line) => lines.push(line),
    initialDelayMs: 50,
    giveUpAfter: 4,
    giveUpHint: 'Fix it, then run it alone with: npm start -w @gatehouse/remote-reports',
  });
  started.push(failing);
  superviseServer('profile', portB);
  await waitForUrl(`http://127.0.0.1:${portB}/`, { timeoutMs: 20_000 });
  const other = await pidAt(portB);

  await failing.givenUp;

  expect(lines.slice(0, 3)).toEqual([
    'reports stopped (exit code 3); restarting in 0.05 s — attempt 2',
    'reports stopped (exit code 3); restarting in 0.1 s — attempt 3',
    'reports stopped (exit code 3); restarting in 0.2 s — attempt 4',
  ]);
  assert.equal(lines.length, 4);
  assert.equal(
    lines[3],
    [
      'reports stopped (exit code 3) 4 times in a row, each within 60 s of starting; not restarting it. Everything else keeps running.',
      'Its last output:',
      '  | config error: no entry',
      '  | config error: no entry',
      '  | config error: no entry',
      '  | config error: no entry',
      'Fix it, then run it alone with: npm start -w @gatehouse/remote-reports',
    ].join('\n'),
  );
  assert.equal(failing.state(), 'given up');
  assert.equal(await pidAt(portB), other, 'profile kept running');
});

test('an exit code that reports a signal (128 + n, as npm and sh give) names the signal', async () => {
  const lines: string[] = [];
  const app = supervise('admin', 'sh', ['-c', 'sh -c "kill -KILL \\$\\$"; exit $?'], { log: (line) => lines.push(line), giveUpAfter: 1 });
  started.push(app);
  await app.givenUp;
  assert.match(lines[0] ?? '', /^admin stopped \(exit code 137, from SIGKILL\) 1 time in a row/);
});

test('an app that stayed up a while starts over at the first pause and attempt 2', async () => {
  const port = await freePort();
  const { app, lines } = superviseServer('shell', port, { stableMs: 300 });
  for (let round = 0; round < 2; round++) {
    await waitForUrl(`http://127.0.0.1:${port}/`, { timeoutMs: 20_000 });
    const pid = await pidAt(port);
    await new Promise((resolve) => setTimeout(resolve, 400)); // up longer than stableMs
    process.kill(pid, 'SIGTERM');
    await until(() => app.current()?.child.pid !== undefined && lines.length === round + 1, 'restarted');
  }
  expect(lines).toEqual([
    'shell stopped (SIGTERM); restarting in 0.05 s — attempt 2',
    'shell stopped (SIGTERM); restarting in 0.05 s — attempt 2',
  ]);
});

test('an app that answered counts as running: killed again and again, it is never given up on', async () => {
  const port = await freePort();
  const readies: boolean[] = [];
  const { app, lines } = superviseServer('reports', port, {
    giveUpAfter: 2,
    readyUrl: `http://127.0.0.1:${port}/`,
    onReady: (restarted) => readies.push(restarted),
  });
  for (let round = 0; round < 3; round++) {
    await until(() => readies.length === round + 1, `up ${round + 1} times`);
    process.kill(await pidAt(port), 'SIGKILL');
    await until(() => lines.length === round + 1, `stop ${round + 1} reported`);
  }
  await until(() => readies.length === 4, 'up again');
  expect(lines).toEqual(Array(3).fill('reports stopped (SIGKILL); restarting in 0.05 s — attempt 2'));
  expect(readies).toEqual([false, true, true, true]);
  assert.equal(app.state(), 'running');
});

test('stop() ends the whole process group: the server behind a shell stops listening and is gone', async () => {
  const port = await freePort();
  const app = supervise('profile', 'sh', ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(LISTEN)} & wait`], {
    log: () => {},
    spawnOptions: { env: { ...process.env, PORT: String(port) } },
  });
  started.push(app);
  await waitForUrl(`http://127.0.0.1:${port}/`, { timeoutMs: 20_000 });
  const server = await pidAt(port);
  assert.notEqual(server, app.current()?.child.pid, 'the server is a grandchild, not the supervised process itself');

  await app.stop(1000);

  assert.equal(app.state(), 'stopped');
  assert.equal(await answers(`http://127.0.0.1:${port}/`), false);
  await until(() => !alive(server), `pid ${server} is gone`);
});

test('SIGINT (Ctrl-C) and SIGTERM to the supervising process stop every group; no server is left listening', async () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const [portA, portB] = [await freePort(), await freePort()];
    const supervisor = spawn(process.execPath, [...WITH_TSX, join(__dirname, 'fixtures/superviseUntilSignal.ts')], {
      env: { ...process.env, PORT_A: String(portA), PORT_B: String(portB) },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => supervisor.once('exit', (code) => resolve(code)));
    await waitForUrl(`http://127.0.0.1:${portA}/`, { timeoutMs: 20_000 });
    await waitForUrl(`http://127.0.0.1:${portB}/`, { timeoutMs: 20_000 });
    const servers = [await pidAt(portA), await pidAt(portB)];

    supervisor.kill(signal);

    assert.equal(await exited, 0, `exit code after ${signal}`);
    assert.equal(await answers(`http://127.0.0.1:${portA}/`), false, `:${portA} still answers after ${signal}`);
    assert.equal(await answers(`http://127.0.0.1:${portB}/`), false, `:${portB} still answers after ${signal}`);
    for (const pid of servers) await until(() => !alive(pid), `pid ${pid} is gone after ${signal}`);
  }
});

// Security round three (info): a foreign process that answers the app's ready address is not the app.
test('a foreign server at the ready address is named, and the app is not counted as up', async () => {
  const port = await freePort();
  const foreign = createServer((_, response) => response.end('not the app'));
  await new Promise((resolve) => foreign.listen(port, '127.0.0.1', () => resolve(undefined)));
  try {
    let ready = 0;
    const lines: string[] = [];
    // the app itself never listens: only the foreign server answers
    const app = supervise('reports', process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      log: (line) => lines.push(line),
      readyUrl: `http://127.0.0.1:${port}/`,
      onReady: () => ready++,
    });
    started.push(app);
    await until(() => lines.length > 0, 'the supervisor says who answers');
    assert.match(
      lines[0] ?? '',
      new RegExp(`^reports: http://127\\.0\\.0\\.1:${port}/ is answered by pid ${process.pid} \\(.*\\), not by reports; not counted as up`),
    );
    assert.equal(ready, 0);
  } finally {
    await new Promise((resolve) => foreign.close(() => resolve(undefined)));
  }
});
