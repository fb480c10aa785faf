import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';

import { createLocalJWKSet, exportJWK, jwtVerify } from 'jose';

import { toClient } from '../src/realm/buildRealm.js';
import { backchannelTargets } from '../src/sessions/backchannelLogout.js';
import { createRealmKeys } from '../src/tokens/keys.js';
import { postLogoutTokens } from '../src/tokens/postLogoutToken.js';

const issuer = 'http://localhost:8080/realms/gatehouse';

test('each target gets one form POST whose logout_token verifies against the realm key and names the session', async (t) => {
  const received: { contentType: string | undefined; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ contentType: req.headers['content-type'], body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel-logout`;
  const keys = await createRealmKeys();
  const failures: unknown[] = [];

  await postLogoutTokens({ issuer, keys }, [{ clientId: 'gatehouse-shell', url }], { sub: 'user-1', sid: 'session-1' }, (_, r) =>
    failures.push(r),
  );

  assert.deepEqual(failures, []);
  assert.equal(received.length, 1);
  assert.equal(received[0]!.contentType, 'application/x-www-form-urlencoded');
  const form = new URLSearchParams(received[0]!.body);
  assert.deepEqual([...form.keys()], ['logout_token']);
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: keys.kid, alg: 'RS256' }] });
  const { payload } = await jwtVerify(form.get('logout_token')!, jwks, { issuer, audience: 'gatehouse-shell', typ: 'logout+jwt' });
  assert.equal(payload.sub, 'user-1');
  assert.equal(payload.sid, 'session-1');
});

test('a receiver that is down or refuses is reported, not retried, and does not throw', async () => {
  const keys = await createRealmKeys();
  const failures: string[] = [];
  await postLogoutTokens(
    { issuer, keys },
    [{ clientId: 'gatehouse-shell', url: 'http://127.0.0.1:1/nothing' }],
    { sub: 'u', sid: 's' },
    (target) => failures.push(target.clientId),
  );
  assert.deepEqual(failures, ['gatehouse-shell']);
});

test('no target, no POST', async () => {
  const keys = await createRealmKeys();
  await postLogoutTokens({ issuer, keys }, [], { sub: 'u', sid: 's' }, () => assert.fail('nothing to fail'));
});

test('a client takes back-channel logout only when the realm file gives it a backchannel.logout.url', () => {
  const url = 'http://127.0.0.1:3020/backchannel-logout';
  assert.equal(toClient({ clientId: 'a', attributes: { 'backchannel.logout.url': url } }).backchannelLogoutUrl, url);
  assert.equal(toClient({ clientId: 'b', attributes: { 'backchannel.logout.url': '' } }).backchannelLogoutUrl, undefined);
  assert.equal(toClient({ clientId: 'c' }).backchannelLogoutUrl, undefined);
});

test("a client's back-channel settings read as Keycloak 26.7.3 imports them (absent: no sid, no revoke_offline_access, no front-channel logout)", () => {
  const imported = toClient({ clientId: 'd', attributes: { 'backchannel.logout.url': 'http://127.0.0.1:3020/backchannel-logout' } });
  // absent, and read as false
  assert.equal(imported.backchannelLogoutSessionRequired, undefined);
  assert.equal(imported.backchannelLogoutRevokeOfflineTokens, undefined);
  const [target] = backchannelTargets(
    { id: 's', userId: 'u', started: 0, lastActive: 0, clients: new Map([['d', issuer]]) },
    () => imported,
    'backchannel',
  );
  assert.equal(target?.sessionRequired, false);
  assert.equal(target?.revokeOfflineTokens, false);
  assert.equal(imported.frontchannelLogout, false);
  const named = toClient({
    clientId: 'e',
    frontchannelLogout: true,
    attributes: { 'backchannel.logout.session.required': 'TRUE', 'backchannel.logout.revoke.offline.tokens': 'true' },
  });
  assert.equal(named.backchannelLogoutSessionRequired, true);
  assert.equal(named.backchannelLogoutRevokeOfflineTokens, true);
  assert.equal(named.frontchannelLogout, true);
});
