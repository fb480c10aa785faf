// A port held by a real listener (another process) is found taken, and the message names its pid and command
// line; where the owner cannot be read, the message gives the command that finds it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from '../../src/processes';
import { describePortOwner, portOwners, portTaken } from '../../src/portOwner';
import { freePort } from '../../src/ports';

// A behaviour that never happens fails the test instead of hanging it (hooks included).
jest.setTimeout(60_000);

const LISTEN = join(__dirname, 'fixtures/listen.cjs');

let listener: import('../../src/processes').ManagedProcess;
let PORT = 0;
beforeAll(async () => {
  PORT = await freePort();
  listener = startProcess(process.execPath, [LISTEN], {
    env: { ...process.env, PORT: String(PORT) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Its own word, not a request: a connection to it would be a second socket on the port (an accepted one).
  await new Promise((resolve, reject) => {
    listener.child.stdout?.on('data', (chunk) => String(chunk).includes('listening on') && resolve(undefined));
    void listener.exited.then(() => reject(new Error('the listener exited before listening')));
  });
});
afterAll(() => listener.stop(1000));

test('a port another process listens on is taken, and the message names its pid and command line', async () => {
  expect(portOwners(PORT)).toEqual([{ pid: listener.child.pid, command: `${process.execPath} ${LISTEN}` }]);
  assert.equal(
    describePortOwner(PORT, 'the remote reports'),
    `port ${PORT} (the remote reports) is taken by pid ${listener.child.pid} (${process.execPath} ${LISTEN}); stop it (kill ${listener.child.pid}) and start again.`,
  );
  assert.equal(await portTaken(PORT), true);
});

test('a free port is not taken and has no owner', async () => {
  const free = await freePort();
  assert.equal(await portTaken(free), false);
  expect(portOwners(free)).toEqual([]);
});

test('where the owner cannot be read, the message says so and gives the command that finds it', () => {
  const noProc = mkdtempSync(join(tmpdir(), 'testkit-no-proc-'));
  try {
    assert.equal(portOwners(PORT, { proc: noProc }), null);
    assert.equal(
      describePortOwner(PORT, 'the shell', { proc: noProc }),
      `port ${PORT} (the shell) is taken by a process whose owner cannot be read here; find it with \`ss -ltnp 'sport = :${PORT}'\` or \`lsof -i :${PORT}\`, stop it, and start again.`,
    );
  } finally {
    rmSync(noProc, { recursive: true, force: true });
  }
});
