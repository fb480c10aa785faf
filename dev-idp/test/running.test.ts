import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';

import { startDevIdp } from '../src/index.js';
import { withCli } from './support/cli.js';

test('health: /health/live and /health/ready on the management port, not on the main one', async () => {
  const idp = await startDevIdp({ port: 0, managementPort: 0, quiet: true });
  try {
    assert.ok(idp.managementUrl);
    for (const path of ['/health/live', '/health/ready']) {
      const response: Response = await fetch(`${idp.managementUrl}${path}`);
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), { status: 'UP', checks: [] });
    }
    assert.equal((await fetch(`${idp.url}/health/live`)).status, 404);
  } finally {
    await idp.close();
  }
});

test('listens on 127.0.0.1 by default; host widens it', async () => {
  const loopback = await startDevIdp({ port: 0, quiet: true });
  const wide = await startDevIdp({ port: 0, host: '::', quiet: true });
  try {
    // ::1 is another interface than 127.0.0.1: reachable only when the server binds more than loopback IPv4.
    await assert.rejects(fetch(`http://[::1]:${loopback.port}/realms/master`));
    assert.equal((await fetch(`http://[::1]:${wide.port}/realms/master`)).status, 200);
  } finally {
    await loopback.close();
    await wide.close();
  }
});

test("the CLI takes realm master's administrator from KC_BOOTSTRAP_ADMIN_USERNAME / _PASSWORD", async () => {
  await withCli(
    ['--port', '18080', '--management-port', '19000'],
    { KC_BOOTSTRAP_ADMIN_USERNAME: 'boss', KC_BOOTSTRAP_ADMIN_PASSWORD: 's3cret' },
    'health:',
    async (output) => {
      assert.match(output, /listening|health/);
      const token = (username: string, password: string) =>
        fetch('http://localhost:18080/realms/master/protocol/openid-connect/token', {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username, password }),
        });
      assert.equal((await token('boss', 's3cret')).status, 200);
      assert.equal((await token('admin', 'admin')).status, 401);
      assert.equal((await fetch('http://localhost:19000/health/live')).status, 200);
    },
  );
});

test('the first answer after the port opens already knows the realms (no "Realm does not exist" while they load)', async () => {
  const cli = spawn(
    process.execPath,
    ['bin/gatehouse-dev-idp.mjs', '--port', '18082', '--management-port', '0', '--realm', '../deploy/keycloak/gatehouse-realm.json'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    const discovery = 'http://localhost:18082/realms/gatehouse/.well-known/openid-configuration';
    let first: Response | undefined;
    for (const deadline = Date.now() + 30_000; !first && Date.now() < deadline;) {
      first = await fetch(discovery).catch(() => undefined); // refused until the port opens
      if (!first) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    assert.ok(first, 'the provider never answered');
    assert.equal(first.status, 200);
  } finally {
    cli.kill('SIGTERM');
    await once(cli, 'exit');
  }
});
