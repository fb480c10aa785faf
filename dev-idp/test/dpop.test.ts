import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, connect, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import KcAdminClient from '@keycloak/keycloak-admin-client';
import { startDevIdp } from '../src/index.js';
import type { DevIdp, RealmRepresentation } from '../src/index.js';
import { APP, CLIENT, scopedRealm } from './support/fixtures.js';
import { decodeJwt, endpoint, exchange, signIn } from './support/codeFlow.js';
import { FormBrowser } from './support/FormBrowser.js';
import { dpopProof, newDpopKey, thumbprint, type DpopKey, type ProofFaults } from './support/dpopProof.js';

// DPoP (RFC 9449) at the token endpoint, as Keycloak 26.7.3 answers it (measured by differential/dpopProbes.ts).
const REALM = 'dpop';
const REQUIRED = 'dpop-required';
const SIGN_IN_SCOPE = 'openid role-audiences profile-api admin-api reports-api';

type Key = DpopKey;
const newKey = newDpopKey;
const proof = dpopProof;

let idp: DevIdp;
const tokenUrl = (realm = REALM): string => endpoint(idp.url, realm, 'token');

async function token(
  body: Record<string, string>,
  dpop?: string,
  realm = REALM,
): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(tokenUrl(realm), {
    method: 'POST',
    headers: dpop ? { dpop } : {},
    body: new URLSearchParams({ client_id: CLIENT, ...body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

const refreshBody = (refreshToken: string, scope?: string): Record<string, string> => ({
  grant_type: 'refresh_token',
  refresh_token: refreshToken,
  ...(scope ? { scope } : {}),
});

async function signedIn(key?: Key, realm = REALM): Promise<{ status: number; body: Record<string, string> }> {
  const { code, verifier } = await signIn(idp.url, realm, 'alice', new FormBrowser(), { scope: SIGN_IN_SCOPE });
  const response = await exchange(idp.url, realm, code, verifier, key ? { dpop: await proof(key, 'POST', tokenUrl(realm)) } : {});
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

const cnf = (jwt: string | undefined): unknown => (decodeJwt(jwt ?? '').payload.cnf as { jkt?: unknown } | undefined)?.jkt;

function requiringDpop(rep: RealmRepresentation): RealmRepresentation {
  for (const client of rep.clients ?? []) {
    if (client.clientId === CLIENT) {
      client.attributes = { ...client.attributes, 'dpop.bound.access.tokens': 'true' };
      client.directAccessGrantsEnabled = true;
    }
  }
  return rep;
}

function withPasswordGrant(rep: RealmRepresentation): RealmRepresentation {
  for (const client of rep.clients ?? []) if (client.clientId === CLIENT) client.directAccessGrantsEnabled = true;
  return rep;
}

before(async () => {
  idp = await startDevIdp({ port: 0, realms: [withPasswordGrant(scopedRealm(REALM)), requiringDpop(scopedRealm(REQUIRED))], quiet: true });
});
after(() => idp.close());

describe('DPoP at the token endpoint (Keycloak 26.7.3)', () => {
  test('a code exchange with a proof binds the refresh token too; it then needs a proof of that key', async () => {
    const key = newKey();
    const first = await signedIn(key);
    assert.equal(first.status, 200);
    assert.equal(first.body.token_type, 'DPoP');
    const jkt = await thumbprint(key);
    assert.equal(cnf(first.body.access_token), jkt);
    assert.equal(cnf(first.body.refresh_token), jkt, 'the refresh token carries cnf.jkt');
    assert.equal(decodeJwt(first.body.access_token ?? '').payload.typ, 'DPoP', 'a bound access token is typed DPoP, as Keycloak types it');
    assert.equal(decodeJwt(first.body.refresh_token ?? '').payload.typ, 'Refresh');

    const without = await token(refreshBody(first.body.refresh_token ?? ''));
    assert.deepEqual([without.status, without.body.error, without.body.error_description], [400, 'invalid_grant', 'DPoP proof is missing']);
    const other = newKey();
    const wrongKey = await token(refreshBody(first.body.refresh_token ?? ''), await proof(other, 'POST', tokenUrl()));
    assert.deepEqual(
      [wrongKey.status, wrongKey.body.error, wrongKey.body.error_description],
      [400, 'invalid_grant', "DPoP confirmation doesn't match DPoP proof"],
    );
    const proven = await token(refreshBody(first.body.refresh_token ?? '', 'openid'), await proof(key, 'POST', tokenUrl()));
    assert.equal(proven.status, 200);
    assert.equal(proven.body.token_type, 'DPoP');
    assert.equal(cnf(proven.body.refresh_token), jkt, 'the new refresh token is bound as well');
  });

  test('a refresh with a proof binds the new refresh token of an unbound session; the original keeps working without one', async () => {
    const first = await signedIn();
    assert.equal(first.body.token_type, 'Bearer');
    assert.equal(cnf(first.body.refresh_token), undefined);
    assert.equal(decodeJwt(first.body.access_token ?? '').payload.typ, 'Bearer');
    const key = newKey();
    const bound = await token(refreshBody(first.body.refresh_token ?? '', 'openid'), await proof(key, 'POST', tokenUrl()));
    assert.equal(bound.status, 200);
    assert.equal(bound.body.token_type, 'DPoP');
    assert.equal(cnf(bound.body.refresh_token), await thumbprint(key));
    const its = await token(refreshBody(bound.body.refresh_token ?? ''));
    assert.deepEqual([its.status, its.body.error, its.body.error_description], [400, 'invalid_grant', 'DPoP proof is missing']);
    const original = await token(refreshBody(first.body.refresh_token ?? ''));
    assert.equal(original.status, 200, 'the unbound original is not rotated away');
    assert.equal(original.body.token_type, 'Bearer');
  });

  test('a refresh down to openid has no aud; one with role-audiences the audiences of its roles', async () => {
    const first = await signedIn();
    const narrow = await token(refreshBody(first.body.refresh_token ?? '', 'openid'));
    assert.equal(narrow.status, 200);
    const payload = decodeJwt(narrow.body.access_token ?? '').payload;
    assert.equal('aud' in payload, false, `no aud claim at all, got ${JSON.stringify(payload.aud)}`);
    const audiences = await token(refreshBody(first.body.refresh_token ?? '', 'openid role-audiences'));
    assert.deepEqual(decodeJwt(audiences.body.access_token ?? '').payload.aud, ['account', 'reports']);
    const api = await token(refreshBody(first.body.refresh_token ?? '', 'profile-api'));
    assert.equal(decodeJwt(api.body.access_token ?? '').payload.aud, 'profile-api');
  });

  test("a bad proof is refused first, with invalid_request and Keycloak's reason", async () => {
    const key = newKey();
    const { code, verifier } = await signIn(idp.url, REALM, 'alice', new FormBrowser(), { scope: SIGN_IN_SCOPE });
    const exchanged = await exchange(idp.url, REALM, code, verifier, {
      dpop: await proof(key, 'POST', tokenUrl(), undefined, { htm: 'GET' }),
    });
    assert.deepEqual(await exchanged.json(), { error: 'invalid_request', error_description: 'DPoP HTTP method mismatch' });

    const refreshToken = (await signedIn()).body.refresh_token ?? '';
    const other = newKey();
    const cases: Array<[ProofFaults, string]> = [
      [{ htm: 'GET' }, 'DPoP HTTP method mismatch'],
      [{ htu: endpoint(idp.url, REALM, 'userinfo') }, 'DPoP HTTP URL mismatch'],
      [{ htu: ':::*;' }, 'Malformed HTTP URL in DPoP proof'],
      [{ iatOffset: -26 }, 'DPoP proof is not active'],
      [{ iatOffset: -300 }, 'DPoP proof is not active'],
      [{ iatOffset: 17 }, 'DPoP proof is not active'],
      [{ jti: null }, 'DPoP mandatory claims are missing'],
      [{ typ: 'JWT' }, 'Invalid or missing type in DPoP header: JWT'],
      [{ jwk: null }, 'No JWK in DPoP header'],
      [{ signer: other }, 'DPoP verification failure: org.keycloak.exceptions.TokenSignatureInvalidException: Invalid token signature'],
    ];
    for (const [faults, description] of cases) {
      const answer = await token(refreshBody(refreshToken), await proof(key, 'POST', tokenUrl(), undefined, faults));
      assert.deepEqual(
        [answer.status, answer.body.error, answer.body.error_description],
        [400, 'invalid_request', description],
        JSON.stringify(faults),
      );
    }
    const malformed = await token(refreshBody(refreshToken), 'not-a-jwt');
    assert.deepEqual(malformed.body, { error: 'invalid_request', error_description: 'DPoP header verification failure' });

    // Keycloak 26's window: at most 15 s ahead, less than 25 s old; the query of htu does not count
    for (const faults of [{ iatOffset: -20 }, { iatOffset: 14 }, { htu: `${tokenUrl()}?a=b` }]) {
      const answer = await token(refreshBody(refreshToken), await proof(key, 'POST', tokenUrl(), undefined, faults));
      assert.equal(answer.status, 200, JSON.stringify(faults));
    }
    const once = await proof(key, 'POST', tokenUrl());
    assert.equal((await token(refreshBody(refreshToken), once)).status, 200);
    const replayed = await token(refreshBody(refreshToken), once);
    assert.deepEqual(replayed.body, { error: 'invalid_request', error_description: 'DPoP proof has already been used' });
  });

  test("proofs in Keycloak's algorithms are taken, RSA and P-384 included (not only oidc-provider's ES256 and EdDSA)", async () => {
    const refreshToken = (await signedIn()).body.refresh_token ?? '';
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keys: Array<[string, Key]> = [
      ['RS256', rsa],
      ['PS256', rsa],
      ['ES384', generateKeyPairSync('ec', { namedCurve: 'P-384' })],
      ['EdDSA', generateKeyPairSync('ed25519')],
    ];
    for (const [alg, key] of keys) {
      const answer = await token(refreshBody(refreshToken), await proof(key, 'POST', tokenUrl(), undefined, { alg }));
      assert.equal(answer.status, 200, `${alg}: ${JSON.stringify(answer.body)}`);
      assert.equal(cnf(answer.body.refresh_token), await thumbprint(key), alg);
    }
    const ed25519 = await token(
      refreshBody(refreshToken),
      await proof(generateKeyPairSync('ed25519'), 'POST', tokenUrl(), undefined, { alg: 'Ed25519' }),
    );
    assert.deepEqual(ed25519.body, { error: 'invalid_request', error_description: 'Unsupported DPoP algorithm: Ed25519' });
  });

  test('a client with dpop.bound.access.tokens needs a proof for every token request', async () => {
    const without = await signedIn(undefined, REQUIRED);
    assert.deepEqual([without.status, without.body], [400, { error: 'invalid_request', error_description: 'DPoP proof is missing' }]);
    const key = newKey();
    const first = await signedIn(key, REQUIRED);
    assert.equal(first.status, 200);
    assert.equal(first.body.token_type, 'DPoP');
    const proven = await token(
      refreshBody(first.body.refresh_token ?? '', 'profile-api'),
      await proof(key, 'POST', tokenUrl(REQUIRED)),
      REQUIRED,
    );
    assert.equal(proven.status, 200);
    const refused = await token(refreshBody(first.body.refresh_token ?? ''), undefined, REQUIRED);
    assert.deepEqual([refused.status, refused.body], [400, { error: 'invalid_request', error_description: 'DPoP proof is missing' }]);
    const password = await token({ grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid' }, undefined, REQUIRED);
    assert.deepEqual(password.body, { error: 'invalid_request', error_description: 'DPoP proof is missing' });
  });

  test('a proof for the address the client called, through a forwarded port, is taken; one for another host is not', async () => {
    // a client that reaches the provider through a TCP forwarder (a port of its own, the same Host it names) proves for
    // that address, as Keycloak without a fixed hostname compares it with the request's
    const forwarder = createServer((client) => {
      const upstream = connect(Number(new URL(idp.url).port), '127.0.0.1');
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    try {
      const forwarded = `http://localhost:${(forwarder.address() as AddressInfo).port}`;
      const url = endpoint(forwarded, REALM, 'token');
      const refreshToken = (await signedIn()).body.refresh_token ?? '';
      const key = newKey();
      const send = async (htu: string) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { dpop: await proof(key, 'POST', htu) },
          body: new URLSearchParams({ client_id: CLIENT, ...refreshBody(refreshToken) }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, string> };
      };
      const taken = await send(url);
      assert.equal(taken.status, 200, JSON.stringify(taken.body));
      assert.equal(cnf(taken.body.access_token), await thumbprint(key));
      assert.deepEqual((await send(endpoint('http://localhost:1', REALM, 'token'))).body, {
        error: 'invalid_request',
        error_description: 'DPoP HTTP URL mismatch',
      });
    } finally {
      forwarder.close();
    }
  });

  test('the password grant binds its tokens to the proof key', async () => {
    const key = newKey();
    const answer = await token(
      { grant_type: 'password', username: 'alice', password: 'alice', scope: 'openid' },
      await proof(key, 'POST', tokenUrl()),
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.body.token_type, 'DPoP');
    assert.equal(cnf(answer.body.access_token), await thumbprint(key));
    assert.equal(cnf(answer.body.refresh_token), await thumbprint(key));
  });

  test('userinfo takes a proof within the same window (up to 24 s old)', async () => {
    const key = newKey();
    const first = await signedIn(key);
    const userinfo = endpoint(idp.url, REALM, 'userinfo');
    const call = async (iatOffset: number) =>
      (
        await fetch(userinfo, {
          headers: {
            authorization: `DPoP ${first.body.access_token}`,
            dpop: await proof(key, 'GET', userinfo, first.body.access_token, { iatOffset }),
          },
        })
      ).status;
    assert.equal(await call(-20), 200);
    assert.equal(await call(14), 200);
    assert.equal(await call(-30), 401);
    assert.equal(await call(20), 401);
  });

  test('the admin API sets and shows dpop.bound.access.tokens, and the token endpoint follows it', async () => {
    const admin = new KcAdminClient({ baseUrl: idp.url, realmName: 'master' });
    await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: 'admin', password: 'admin' });
    const [spa] = await admin.clients.find({ realm: REALM, clientId: CLIENT });
    assert.equal(spa?.attributes?.['dpop.bound.access.tokens'], undefined);
    await admin.clients.update(
      { realm: REALM, id: spa?.id ?? '' },
      { ...spa, attributes: { ...spa?.attributes, 'dpop.bound.access.tokens': 'true' } },
    );
    try {
      const [updated] = await admin.clients.find({ realm: REALM, clientId: CLIENT });
      assert.equal(updated?.attributes?.['dpop.bound.access.tokens'], 'true');
      const refused = await signedIn(undefined, REALM);
      assert.deepEqual(refused.body, { error: 'invalid_request', error_description: 'DPoP proof is missing' });
    } finally {
      await admin.clients.update(
        { realm: REALM, id: spa?.id ?? '' },
        { ...spa, attributes: { ...spa?.attributes, 'dpop.bound.access.tokens': 'false' } },
      );
    }
    assert.equal((await signedIn(undefined, REALM)).status, 200);
  });
});

describe('dpop.bound.access.tokens in the demo realm file', () => {
  test('a copy of gatehouse-realm.json with it on gatehouse-shell refuses a code exchange without a proof', async () => {
    const file = fileURLToPath(new URL('../../deploy/keycloak/gatehouse-realm.json', import.meta.url));
    const rep = JSON.parse(await readFile(file, 'utf8')) as RealmRepresentation;
    const shell = rep.clients?.find((c) => c.clientId === 'gatehouse-shell');
    assert.ok(shell);
    shell.attributes = { ...shell.attributes, 'dpop.bound.access.tokens': 'true' };
    const dir = await mkdtemp(join(tmpdir(), 'dev-idp-dpop-'));
    const copy = join(dir, 'gatehouse-realm.json');
    await writeFile(copy, JSON.stringify(rep));
    const fromFile = await startDevIdp({ port: 0, realmFiles: [copy], quiet: true });
    try {
      const codeFor = async () =>
        signIn(fromFile.url, 'gatehouse', 'alice', new FormBrowser(), { client_id: 'gatehouse-shell', redirect_uri: `${APP}/` });
      const exchangeAt = async (signedInWith: { code: string; verifier: string }, dpop?: string) =>
        fetch(endpoint(fromFile.url, 'gatehouse', 'token'), {
          method: 'POST',
          headers: dpop ? { dpop } : {},
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            client_id: 'gatehouse-shell',
            redirect_uri: `${APP}/`,
            code: signedInWith.code,
            code_verifier: signedInWith.verifier,
          }),
        });
      const refused = await exchangeAt(await codeFor());
      assert.equal(refused.status, 400);
      assert.deepEqual(await refused.json(), { error: 'invalid_request', error_description: 'DPoP proof is missing' });
      const key = newKey();
      const proven = await exchangeAt(await codeFor(), await proof(key, 'POST', endpoint(fromFile.url, 'gatehouse', 'token')));
      assert.equal(proven.status, 200);
      assert.equal(((await proven.json()) as { token_type: string }).token_type, 'DPoP');
    } finally {
      await fromFile.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
