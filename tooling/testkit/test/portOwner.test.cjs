'use strict';
// A port held by a real listener (another process) is found taken, and the message names its pid and command
// line; where the owner cannot be read, the message gives the command that finds it.

const assert = require('node:assert/strict');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { after, before, test } = require('node:test');
const { startProcess } = require('../src/processes.cjs');
const { describePortOwner, portOwners, portTaken } = require('../src/portOwner.cjs');
const { freePort } = require('./freePort.cjs');

// A behaviour that never happens fails the test instead of hanging it.
const LIMIT = { timeout: 60_000 };

const LISTEN = join(__dirname, 'fixtures/listen.cjs');

/** @type {import('../src/processes.cjs').ManagedProcess} */
let listener;
let PORT = 0;
before(async () => {
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
after(() => listener.stop(1000));

test('a port another process listens on is taken, and the message names its pid and command line', LIMIT, async () => {
  assert.deepEqual(portOwners(PORT), [{ pid: listener.child.pid, command: `${process.execPath} ${LISTEN}` }]);
  assert.equal(
    describePortOwner(PORT, 'the remote reports'),
    `port ${PORT} (the remote reports) is taken by pid ${listener.child.pid} (${process.execPath} ${LISTEN}); stop it (kill ${listener.child.pid}) and start again.`,
  );
  assert.equal(await portTaken(PORT), true);
});

test('a free port is not taken and has no owner', LIMIT, async () => {
  const free = await freePort();
  assert.equal(await portTaken(free), false);
  assert.deepEqual(portOwners(free), []);
});

test('where the owner cannot be read, the message says so and gives the command that finds it', LIMIT, () => {
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
