import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import KcAdminClient from '@keycloak/keycloak-admin-client';

import { startDevIdp } from '../src/index.js';
import type { DevIdp } from '../src/index.js';
import { demoRealm } from './support/fixtures.js';

let idp: DevIdp;
let admin: KcAdminClient;

before(async () => {
  idp = await startDevIdp({ port: 0, quiet: true, adminUser: 'root', adminPassword: 's3cret' });
  admin = new KcAdminClient({ baseUrl: idp.url, realmName: 'master' });
  await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: 'root', password: 's3cret' });
});

after(() => idp.close());

const passwordToken = (realm: string, username: string, password: string, clientId = 'cli') =>
  fetch(`${idp.url}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // `openid`: the token then also serves userinfo (Keycloak refuses one without it: 403 "Missing openid scope")
    body: new URLSearchParams({ grant_type: 'password', client_id: clientId, username, password, scope: 'openid' }),
  });

describe('admin REST API through @keycloak/keycloak-admin-client', () => {
  test('refuses calls without an admin token', async () => {
    const response = await fetch(`${idp.url}/admin/realms`);
    assert.equal(response.status, 401);
    const wrong = await passwordToken('master', 'root', 'nope', 'admin-cli');
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_grant');
  });

  test('creates a realm from a full representation, reads, updates and deletes it', async () => {
    await admin.realms.create(demoRealm('admin-a'));
    const realm = await admin.realms.findOne({ realm: 'admin-a' });
    assert.equal(realm?.realm, 'admin-a');
    assert.equal(realm?.ssoSessionIdleTimeout, 1800);
    await admin.realms.update({ realm: 'admin-a' }, { accessTokenLifespan: 60, ssoSessionIdleTimeout: 120 });
    const updated = await admin.realms.findOne({ realm: 'admin-a' });
    assert.equal(updated?.accessTokenLifespan, 60);
    assert.equal(updated?.ssoSessionIdleTimeout, 120);
    const discovery = await fetch(`${idp.url}/realms/admin-a/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    await admin.realms.del({ realm: 'admin-a' });
    const gone = await fetch(`${idp.url}/realms/admin-a/.well-known/openid-configuration`);
    assert.equal(gone.status, 404);
    await assert.rejects(admin.realms.create({ realm: 'bad', clients: [{ clientId: 7 as unknown as string }] }), /clientId/);
  });

  test("a created client's back-channel attributes, as Keycloak 26.7.3 answers them: only those given, and its defaults when the representation names its protocol and no URL", async () => {
    await admin.realms.create({ realm: 'admin-c', enabled: true });
    admin.setConfig({ realmName: 'admin-c' });
    const oidc = { publicClient: true, protocol: 'openid-connect' };
    const created: Record<string, Parameters<KcAdminClient['clients']['create']>[0]> = {
      'no protocol': { publicClient: true },
      'no protocol, session.required false': { publicClient: true, attributes: { 'backchannel.logout.session.required': 'false' } },
      'no URL': oidc,
      'no URL, session.required false': {
        ...oidc,
        attributes: { 'backchannel.logout.session.required': 'false', 'backchannel.logout.revoke.offline.tokens': 'true' },
      },
      'a URL': { ...oidc, attributes: { 'backchannel.logout.url': 'http://127.0.0.1:3020/backchannel-logout' } },
      'an empty URL': { ...oidc, attributes: { 'backchannel.logout.url': '' } },
    };
    const defaults = { 'backchannel.logout.session.required': 'true', 'backchannel.logout.revoke.offline.tokens': 'false' };
    const expected: Record<string, Record<string, string>> = {
      'no protocol': {},
      'no protocol, session.required false': { 'backchannel.logout.session.required': 'false' },
      'no URL': defaults,
      'no URL, session.required false': defaults,
      'a URL': { 'backchannel.logout.url': 'http://127.0.0.1:3020/backchannel-logout' },
      'an empty URL': {},
    };
    try {
      for (const [name, rep] of Object.entries(created)) {
        const clientId = name.replace(/[^a-z]+/g, '-');
        await admin.clients.create({ ...rep, clientId });
        const [found] = await admin.clients.find({ clientId });
        const backchannel = Object.entries(found?.attributes ?? {}).filter(([key]) => key.startsWith('backchannel.'));
        assert.deepEqual(Object.fromEntries(backchannel), expected[name], name);
      }
    } finally {
      admin.setConfig({ realmName: 'master' });
      await admin.realms.del({ realm: 'admin-c' });
    }
  });

  test('users, passwords, roles, clients and logout', async () => {
    await admin.realms.create({ realm: 'admin-b', enabled: true });
    admin.setConfig({ realmName: 'admin-b' });
    try {
      const { id: clientUuid } = await admin.clients.create({
        clientId: 'cli',
        publicClient: true,
        directAccessGrantsEnabled: true,
        standardFlowEnabled: false,
      });
      const [found] = await admin.clients.find({ clientId: 'cli' });
      assert.equal(found?.id, clientUuid);
      const { id: apiUuid } = await admin.clients.create({ clientId: 'api', bearerOnly: true });
      await admin.clients.createRole({ id: apiUuid, name: 'reader' });
      await admin.roles.create({ name: 'staff' });

      const { id } = await admin.users.create({ username: 'dana', enabled: true, email: 'dana@example.com', firstName: 'Dana' });
      const [dana] = await admin.users.find({ username: 'dana', exact: true });
      assert.equal(dana?.id, id);
      assert.deepEqual(await admin.users.find({ username: 'dan', exact: true }), []);
      await admin.users.resetPassword({ id, credential: { type: 'password', value: 'pw', temporary: false } });
      const staff = await admin.roles.findOneByName({ name: 'staff' });
      await admin.users.addRealmRoleMappings({ id, roles: [{ id: staff?.id ?? '', name: 'staff' }] });
      const reader = await admin.clients.findRole({ id: apiUuid, roleName: 'reader' });
      await admin.users.addClientRoleMappings({ id, clientUniqueId: apiUuid, roles: [{ id: reader?.id ?? '', name: 'reader' }] });

      const response = await passwordToken('admin-b', 'dana', 'pw');
      assert.equal(response.status, 200);
      const tokens = (await response.json()) as { access_token: string; refresh_token: string };
      const access = JSON.parse(Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, any>;
      assert.ok(access.realm_access.roles.includes('staff'));
      assert.ok(access.realm_access.roles.includes('default-roles-admin-b'));
      assert.deepEqual(access.resource_access.api.roles, ['reader']);

      const userinfo = () =>
        fetch(`${idp.url}/realms/admin-b/protocol/openid-connect/userinfo`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
      assert.equal((await userinfo()).status, 200);
      await admin.users.logout({ id });
      assert.equal((await userinfo()).status, 401);

      await admin.users.del({ id });
      assert.deepEqual(await admin.users.find({ username: 'dana', exact: true }), []);
    } finally {
      admin.setConfig({ realmName: 'master' });
      await admin.realms.del({ realm: 'admin-b' });
    }
  });
});
