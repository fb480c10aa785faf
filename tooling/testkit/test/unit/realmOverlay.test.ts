// The realm overlay reaches a running provider through the admin API (as `npm run keycloak` applies it to
// Keycloak): here the real dev provider process without an overlay of its own, over real HTTP; the login-status
// frame's /init then accepts the overlay's origin. `KEYCLOAK_URL=… npm exec -- jest realmOverlay` (in tooling/testkit)
// runs it against a Keycloak.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyRealmOverlay } from '../../src/realmOverlay';

// readRealmOverlay loads dev-idp's overlay parser (TypeScript) with tsx's tsImport, which registers loader hooks:
// jest has no such hooks and transpiles the parser itself, so here the parser is required as jest does.
jest.mock('tsx/esm/api', () => ({
  tsImport: (specifier: string) => import(fileURLToPath(specifier)),
}));

const ROOT = join(__dirname, '../../../..');
// the dev provider's start, and the admin client's first load (transpiled by ts-jest), take seconds
jest.setTimeout(60_000);
// another origin per run: a Keycloak keeps what the admin API added in its database
const ORIGIN = `http://localhost:${20000 + (process.pid % 30000)}`;

let idp: import('node:child_process').ChildProcess | undefined;
let url: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'testkit-overlay-'));
  if (process.env.KEYCLOAK_URL) {
    url = process.env.KEYCLOAK_URL;
    return;
  }
  const bin = join(ROOT, 'dev-idp/bin/gatehouse-dev-idp.mjs');
  const child = spawn(
    process.execPath,
    [bin, '--port', '0', '--management-port', '0', '--realm', join(ROOT, 'deploy/keycloak/gatehouse-realm.json')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  idp = child;
  url = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      const found = /on (http:\/\/localhost:\d+)/.exec(output)?.[1];
      if (found && output.includes('admin API')) resolve(found);
    });
    child.once('exit', () => reject(new Error(`the dev provider did not start:\n${output}`)));
  });
});

afterAll(async () => {
  if (idp && idp.exitCode === null) {
    idp.kill('SIGTERM');
    await once(idp, 'exit');
  }
  rmSync(dir, { recursive: true, force: true });
});

async function init(origin: string) {
  const params = new URLSearchParams({ client_id: 'gatehouse-shell', origin });
  return (await fetch(`${url}/realms/gatehouse/protocol/openid-connect/login-status-iframe.html/init?${params}`)).status;
}

test("the overlay's origin is added to the running provider's client once; the frame then accepts it", async () => {
  const file = join(dir, 'gatehouse-realm.local.json');
  writeFileSync(
    file,
    JSON.stringify({ realm: 'gatehouse', clients: [{ clientId: 'gatehouse-shell', redirectUris: [`${ORIGIN}/*`], webOrigins: [ORIGIN] }] }),
  );
  assert.equal(await init(ORIGIN), 403, 'the realm file alone does not accept it');
  expect(await applyRealmOverlay(url, { file })).toEqual([
    `gatehouse-shell redirect URI ${ORIGIN}/*`,
    `gatehouse-shell web origin ${ORIGIN}`,
  ]);
  assert.equal(await init(ORIGIN), 204);
  assert.equal(await init(`${ORIGIN}1`), 403, 'only that origin');
  expect(await applyRealmOverlay(url, { file })).toEqual([]);
});

test('no overlay adds nothing; a broken one says which file to fix', async () => {
  expect(await applyRealmOverlay(url, { file: join(dir, 'none.json') })).toEqual([]);
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{ "realm": "gatehouse", "clients": [{ "clientId": 1 }] }');
  await assert.rejects(
    applyRealmOverlay(url, { file: broken }),
    /broken\.json: clients\[0\]\.clientId: required .*expected \{ "realm".*fix it or delete it/,
  );
  writeFileSync(broken, JSON.stringify({ realm: 'gatehouse', clients: [{ clientId: 'no-such-client', webOrigins: [ORIGIN] }] }));
  await assert.rejects(
    applyRealmOverlay(url, { file: broken }),
    /clients\[0\]\.clientId: "no-such-client" is not a client of gatehouse-realm\.json \(.*gatehouse-shell.*\); an overlay only adds to them/,
  );
});

// Security round three: what Keycloak's admin API would take as it is, the dev provider's parser refuses
// first; nothing reaches the admin API.
const HOSTILE: Array<[string, object, RegExp]> = [
  ['a wildcard web origin', { clientId: 'gatehouse-shell', webOrigins: ['*'] }, /webOrigins\[0\]: "\*": not an origin/],
  ['a "+" web origin', { clientId: 'gatehouse-shell', webOrigins: ['+'] }, /webOrigins\[0\]: "\+": not an origin/],
  [
    'a wildcard redirect URI',
    { clientId: 'gatehouse-shell', redirectUris: ['*'] },
    /redirectUris\[0\]: "\*": only a trailing \/\* is allowed/,
  ],
  [
    'a client Keycloak makes itself',
    { clientId: 'security-admin-console', webOrigins: [ORIGIN] },
    /"security-admin-console" is not a client of/,
  ],
  ['another setting', { clientId: 'gatehouse-shell', directAccessGrantsEnabled: true }, /directAccessGrantsEnabled: an overlay only adds/],
];
for (const [what, overlay, refusal] of HOSTILE) {
  test(`an overlay with ${what} is refused before the admin API is asked`, async () => {
    const file = join(dir, 'hostile.json');
    writeFileSync(file, JSON.stringify({ realm: 'gatehouse', clients: [overlay] }));
    await assert.rejects(applyRealmOverlay('http://127.0.0.1:9/nothing-listens', { file }), refusal);
  });
}

test('an overlay for realm master is refused before the admin API is asked', async () => {
  const file = join(dir, 'master.json');
  writeFileSync(file, JSON.stringify({ realm: 'master', clients: [{ clientId: 'admin-cli', redirectUris: [`${ORIGIN}/*`] }] }));
  await assert.rejects(
    applyRealmOverlay('http://127.0.0.1:9/nothing-listens', { file }),
    /realm: "master" is not the realm of gatehouse-realm\.json \("gatehouse"\); an overlay only adds to it/,
  );
});
