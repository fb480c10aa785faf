import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { RealmFileError, loadRealmFile } from '../src/index.js';
import { realmFromRepresentation } from '../src/realm/loadRealm.js';
import { effectiveRoles } from '../src/realm/roles.js';

const DEMO = fileURLToPath(new URL('../../deploy/keycloak/gatehouse-realm.json', import.meta.url));

/** the folders `file` made, removed when the tests end: a run leaves nothing in the system's temporary folder */
const made: string[] = [];
after(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function file(content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dev-idp-'));
  made.push(dir);
  const path = join(dir, 'broken-realm.json');
  await writeFile(path, content);
  return path;
}

function rejectsWith(field: string, run: () => unknown): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof RealmFileError);
    assert.equal(error.field, field);
    assert.equal(error.source, 'test.json');
    assert.match(error.message, new RegExp(`^test\\.json: ${field.replace(/[[\].]/g, '\\$&')}: `));
    return true;
  });
}

describe('realm files', () => {
  test('the demo realm loads with Keycloak defaults and the default-roles rule', async () => {
    const { realm } = await loadRealmFile(DEMO);
    assert.equal(realm.name, 'gatehouse');
    assert.equal(realm.accessTokenLifespan, 300);
    const shell = realm.clients.find((c) => c.clientId === 'gatehouse-shell');
    assert.equal(shell?.pkceMethod, 'S256');
    assert.deepEqual(shell?.postLogoutRedirectUris, ['+']);
    const alice = realm.users.find((u) => u.username === 'alice');
    assert.ok(alice);
    const roles = effectiveRoles(realm, alice);
    assert.deepEqual(new Set(roles.realm), new Set(['default-roles-gatehouse', 'offline_access', 'uma_authorization', 'user', 'admin']));
    assert.deepEqual(roles.client.reports, ['viewer']);
    assert.deepEqual(new Set(roles.client.account), new Set(['view-profile', 'manage-account', 'manage-account-links']));
  });

  test("absent fields take Keycloak's defaults; users without default-roles get no account roles", () => {
    const { realm } = realmFromRepresentation('test.json', { realm: 'r', clients: [{ clientId: 'c' }], users: [{ username: 'u' }] });
    assert.equal(realm.enabled, true);
    assert.equal(realm.ssoSessionIdleTimeout, 1800);
    assert.equal(realm.ssoSessionMaxLifespan, 36000);
    const client = realm.clients.find((c) => c.clientId === 'c');
    assert.equal(client?.publicClient, false);
    assert.equal(client?.standardFlowEnabled, true);
    assert.equal(client?.directAccessGrantsEnabled, false);
    const user = realm.users[0];
    assert.ok(user);
    assert.equal(user.enabled, false);
    assert.deepEqual(effectiveRoles(realm, user), { realm: [], client: {} });
  });

  test('a missing or wrongly typed field names the file and the field', () => {
    rejectsWith('realm', () => realmFromRepresentation('test.json', { enabled: true }));
    rejectsWith('accessTokenLifespan', () => realmFromRepresentation('test.json', { realm: 'r', accessTokenLifespan: '300' }));
    rejectsWith('clients[1].clientId', () => realmFromRepresentation('test.json', { realm: 'r', clients: [{ clientId: 'a' }, {}] }));
    rejectsWith('clients[0].redirectUris', () =>
      realmFromRepresentation('test.json', { realm: 'r', clients: [{ clientId: 'a', redirectUris: 'http://x/*' }] }),
    );
    rejectsWith('users[0].username', () => realmFromRepresentation('test.json', { realm: 'r', users: [{ email: 'x@y' }] }));
    rejectsWith('users[0].credentials[0].value', () =>
      realmFromRepresentation('test.json', { realm: 'r', users: [{ username: 'u', credentials: [{ type: 'password' }] }] }),
    );
    rejectsWith('users[0].realmRoles[0]', () =>
      realmFromRepresentation('test.json', { realm: 'r', users: [{ username: 'u', realmRoles: ['nope'] }] }),
    );
    rejectsWith('users[0].clientRoles.api', () =>
      realmFromRepresentation('test.json', { realm: 'r', users: [{ username: 'u', clientRoles: { api: ['x'] } }] }),
    );
    rejectsWith('roles.client.api', () =>
      realmFromRepresentation('test.json', { realm: 'r', roles: { client: { api: [{ name: 'x' }] } } }),
    );
  });

  test('bad JSON names the file', async () => {
    const path = await file('{ "realm": ');
    await assert.rejects(loadRealmFile(path), (error: unknown) => {
      assert.ok(error instanceof RealmFileError);
      assert.match(error.message, /^broken-realm\.json: \(file\): not valid JSON/);
      return true;
    });
  });

  test('an unknown field warns; known Keycloak export fields are summarised in one line', () => {
    const { warnings } = realmFromRepresentation('test.json', {
      realm: 'r',
      sslRequired: 'external',
      bruteForceProtected: false,
      clients: [{ clientId: 'c', redirectUri: ['http://x/*'], protocol: 'openid-connect' }],
    });
    assert.deepEqual(warnings, [
      'test.json: unknown field clients[0].redirectUri (ignored)',
      'test.json: ignoring Keycloak settings the dev IdP does not implement: bruteForceProtected, protocol, sslRequired',
    ]);
  });

  test("the demo realm's browser flow asks for every level of its acr.loa.map: no step-up warning", async () => {
    const { warnings } = await loadRealmFile(DEMO);
    assert.deepEqual(
      warnings.filter((w) => w.includes('acr.loa.map')),
      [],
    );
    assert.ok(warnings.length <= 1, `only the summary of ignored Keycloak settings, got ${JSON.stringify(warnings)}`);
  });

  test('a level of acr.loa.map that the browser flow never asks for warns (Keycloak cannot step up to it)', async () => {
    const demo = JSON.parse(await readFile(DEMO, 'utf8')) as Record<string, unknown>;
    const gold = (flows: unknown, browserFlow: unknown): string[] =>
      realmFromRepresentation('test.json', { ...demo, authenticationFlows: flows, browserFlow }).warnings.filter((w) =>
        w.includes('"gold"'),
      );

    assert.deepEqual(gold(undefined, undefined), [
      'test.json: acr.loa.map names "gold" (level 2), but browserFlow "browser" has no Condition - Level of Authentication ' +
        'for level 2: Keycloak cannot step up to "gold" (the dev IdP can). Add a conditional sub-flow for it, as deploy/keycloak/README.md shows.',
    ]);
    const flows = demo.authenticationFlows as { authenticationExecutions: { requirement: string }[] }[];
    const withoutLevel2 = structuredClone(flows);
    withoutLevel2[1]!.authenticationExecutions[1]!.requirement = 'DISABLED';
    assert.equal(gold(withoutLevel2, demo.browserFlow).length, 1);
    assert.deepEqual(gold(flows, demo.browserFlow), []);
  });

  test("a flow reference Keycloak's import cannot resolve names the field", async () => {
    const demo = JSON.parse(await readFile(DEMO, 'utf8')) as {
      authenticationFlows: { authenticationExecutions: Record<string, unknown>[] }[];
    };
    const broken = (change: (rep: typeof demo) => void): unknown => {
      const rep = structuredClone(demo);
      change(rep);
      return rep;
    };
    rejectsWith('browserFlow', () =>
      realmFromRepresentation(
        'test.json',
        broken((r) => Object.assign(r, { browserFlow: 'nope' })),
      ),
    );
    rejectsWith('authenticationFlows[1].authenticationExecutions[1].flowAlias', () =>
      realmFromRepresentation(
        'test.json',
        broken((r) => (r.authenticationFlows[1]!.authenticationExecutions[1]!.flowAlias = 'nope')),
      ),
    );
    rejectsWith('authenticationFlows[2].authenticationExecutions[0].authenticatorConfig', () =>
      realmFromRepresentation(
        'test.json',
        broken((r) => (r.authenticationFlows[2]!.authenticationExecutions[0]!.authenticatorConfig = 'nope')),
      ),
    );
    rejectsWith('authenticationFlows[0].authenticationExecutions[0].requirement', () =>
      realmFromRepresentation(
        'test.json',
        broken((r) => (r.authenticationFlows[0]!.authenticationExecutions[0]!.requirement = 'OPTIONAL')),
      ),
    );
    rejectsWith('authenticationFlows[3].alias', () =>
      realmFromRepresentation(
        'test.json',
        broken((r) => Object.assign(r.authenticationFlows[3]!, { alias: 'browser step-up' })),
      ),
    );
  });

  test('the CLI exits non-zero with the file and field on an invalid realm', async () => {
    const { spawnSync } = await import('node:child_process');
    const path = await file(JSON.stringify({ realm: 'r', users: [{ username: 'u', enabled: 'yes' }] }));
    const bin = fileURLToPath(new URL('../bin/gatehouse-dev-idp.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [bin, '--port', '0', '--realm', path], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /broken-realm\.json: users\[0\]\.enabled: expected true or false/);
  });
});
