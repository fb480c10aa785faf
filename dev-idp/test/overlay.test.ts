import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { parseOverlay } from '../src/realm/overlay.js';
import { RealmFileError } from '../src/realm/RealmFileError.js';

const REALM = '../deploy/keycloak/gatehouse-realm.json';
const NEW_ORIGIN = 'http://localhost:3077';

function overlayFor(origin: string): string {
  return JSON.stringify({
    realm: 'gatehouse',
    clients: [{ clientId: 'gatehouse-shell', redirectUris: [`${origin}/*`], webOrigins: [origin] }],
  });
}

/** The real CLI, as `npm run idp` starts it; resolves with its base URL once the banner is printed. */
async function startCli(overlay: string): Promise<{ cli: ChildProcess; url: string; output: () => string }> {
  const cli = spawn(
    process.execPath,
    ['bin/gatehouse-dev-idp.mjs', '--port', '0', '--management-port', '0', '--realm', REALM, '--realm-overlay', overlay],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  // read with listeners, not `for await` (which would close the pipe when left, and the CLI's next line would fail)
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: unknown) => {
      output += String(chunk);
      const found = /on (http:\/\/localhost:\d+)/.exec(output)?.[1];
      if (found && output.includes('admin API')) resolve(found);
    };
    cli.stdout!.on('data', read);
    cli.stderr!.on('data', read);
    cli.once('exit', () => reject(new Error(`the dev IdP did not start:\n${output}`)));
  });
  return { cli, url, output: () => output };
}

async function stop(cli: ChildProcess): Promise<void> {
  if (cli.exitCode !== null) return;
  cli.kill('SIGTERM');
  await once(cli, 'exit');
}

/** The login-status frame's first call, as its script makes it. */
async function init(url: string, origin: string): Promise<number> {
  const params = new URLSearchParams({ client_id: 'gatehouse-shell', origin });
  return (await fetch(`${url}/realms/gatehouse/protocol/openid-connect/login-status-iframe.html/init?${params}`)).status;
}

test("an origin in the realm overlay is accepted by the login-status frame, and still after the provider's restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'overlay-'));
  const overlay = join(dir, 'gatehouse-realm.local.json');
  writeFileSync(overlay, overlayFor(NEW_ORIGIN));
  try {
    for (const run of ['first start', 'after a restart']) {
      const { cli, url, output } = await startCli(overlay);
      try {
        assert.equal(await init(url, NEW_ORIGIN), 204, run);
        assert.ok(
          output().includes(
            `realm gatehouse (gatehouse-realm.local.json): added gatehouse-shell redirect URI ${NEW_ORIGIN}/*, gatehouse-shell web origin ${NEW_ORIGIN}`,
          ),
          `${run}: the banner says what the overlay added:\n${output()}`,
        );
        assert.equal(await init(url, 'http://localhost:3078'), 403, `${run}: only the overlay's origin is added`);
        assert.equal(await init(url, 'http://localhost:3001'), 204, `${run}: the realm file's origins stay`);
      } finally {
        await stop(cli);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an overlay written while the provider runs applies without a restart; a broken one keeps it running', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'overlay-'));
  const overlay = join(dir, 'gatehouse-realm.local.json'); // does not exist yet
  const { cli, url, output } = await startCli(overlay);
  try {
    assert.equal(await init(url, NEW_ORIGIN), 403);
    writeFileSync(overlay, overlayFor(NEW_ORIGIN));
    let status = 403;
    for (const deadline = Date.now() + 20_000; status !== 204 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await init(url, NEW_ORIGIN);
    }
    assert.equal(status, 204, `the running provider did not pick the overlay up:\n${output()}`);

    writeFileSync(overlay, '{ "realm": "gatehouse", "clients": [ { "clientId": "gatehouse-shell", "webOrigins": ["*"] } ] }');
    for (const deadline = Date.now() + 20_000; !output().includes('nothing was changed') && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(output(), /gatehouse-realm\.local\.json: clients\[0\]\.webOrigins\[0\]: "\*": not an origin/);
    assert.equal(await init(url, 'http://localhost:3078'), 403, 'a refused overlay adds nothing');
    assert.equal(await init(url, NEW_ORIGIN), 204, 'what was added stays');
  } finally {
    await stop(cli);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a broken overlay at start stops the CLI naming the file and the field', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'overlay-'));
  const overlay = join(dir, 'gatehouse-realm.local.json');
  writeFileSync(overlay, JSON.stringify({ realm: 'gatehouse', clients: [{ clientId: 'gatehouse-shell', publicClient: false }] }));
  const cli = spawn(
    process.execPath,
    ['bin/gatehouse-dev-idp.mjs', '--port', '0', '--management-port', '0', '--realm', REALM, '--realm-overlay', overlay],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  cli.stderr.on('data', (chunk) => (stderr += String(chunk)));
  // a CLI that starts anyway is the failure: it prints its banner, and is stopped
  let started = '';
  cli.stdout.on('data', (chunk) => {
    started += String(chunk);
    if (started.includes('admin API')) cli.kill('SIGTERM');
  });
  const [code] = await once(cli, 'exit');
  rmSync(dir, { recursive: true, force: true });
  assert.equal(code, 1, `the dev IdP started with a broken overlay:\n${started}`);
  assert.match(stderr, /error: gatehouse-realm\.local\.json: clients\[0\]\.publicClient: an overlay only adds redirectUris and webOrigins/);
});

test('an overlay accepts exact addresses only: no wildcard origins, no wildcard inside a redirect URI', () => {
  const bad = (clients: unknown, field: RegExp) =>
    assert.throws(
      () => parseOverlay('o.json', { realm: 'gatehouse', clients }),
      (error: unknown) => error instanceof RealmFileError && field.test(error.message),
    );
  bad([{ clientId: 'c', webOrigins: ['*'] }], /webOrigins\[0\]: "\*": not an origin/);
  bad([{ clientId: 'c', webOrigins: ['+'] }], /webOrigins\[0\]/);
  bad([{ clientId: 'c', webOrigins: ['http://localhost:3004/app'] }], /webOrigins\[0\]/);
  bad([{ clientId: 'c', redirectUris: ['http://*.localhost/*'] }], /redirectUris\[0\]: .*only a trailing \/\*/);
  bad([{ clientId: 'c', redirectUris: ['/relative/*'] }], /redirectUris\[0\]: .*absolute/);
  bad([{ redirectUris: [] }], /clients\[0\]\.clientId: required/);
  assert.throws(() => parseOverlay('o.json', { realm: 'gatehouse', users: [] }), /o\.json: users: an overlay only adds to clients/);
  assert.deepEqual(
    parseOverlay('o.json', {
      realm: 'gatehouse',
      clients: [{ clientId: 'c', redirectUris: ['http://localhost:3004/*'], webOrigins: ['http://localhost:3004'] }],
    }),
    { realm: 'gatehouse', clients: [{ clientId: 'c', redirectUris: ['http://localhost:3004/*'], webOrigins: ['http://localhost:3004'] }] },
  );
});
