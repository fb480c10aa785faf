import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import KcAdminClient from '@keycloak/keycloak-admin-client';
import { SignJWT, decodeJwt, exportJWK } from 'jose';

import { startDevIdp } from '../src/index.js';
import type { DevIdp, RealmRepresentation } from '../src/index.js';
import { authorizationUrl, endpoint, exchange, refresh, signIn, tokensFor } from './support/codeFlow.js';
import { FormBrowser } from './support/FormBrowser.js';
import { APP, twoUserRealm } from './support/fixtures.js';

// the first security round's findings in the dev IdP, one regression test each; Keycloak 26.7's answers, which these
// follow, are measured by differential/ (npm run test:differential).
const REALM = 'sec';

function withPasswordGrant(rep: RealmRepresentation): RealmRepresentation {
  rep.clients?.forEach((c) => {
    if (c.clientId === 'spa') c.directAccessGrantsEnabled = true;
  });
  return rep;
}
let idp: DevIdp;

before(async () => {
  idp = await startDevIdp({ port: 0, realms: [twoUserRealm(REALM), withPasswordGrant(twoUserRealm('locks'))], quiet: true });
});
after(() => idp.close());

describe('security', () => {
  test('a wildcard redirect URI cannot be left with a dot-dot segment, however encoded', async () => {
    const status = async (path: string) =>
      (await fetch(authorizationUrl(idp.url, REALM, { client_id: 'wild', redirect_uri: `${APP}${path}` }).url, { redirect: 'manual' }))
        .status;
    assert.equal(await status('/app/page'), 200, 'a path inside /app/* shows the login form');
    for (const escape of [
      '/app/../other',
      '/app/%2e%2e/other',
      '/app/%2E%2E/other',
      '/app/..%2fother',
      '/app/%252e%252e/other',
      '/app/x/..',
    ]) {
      assert.equal(await status(escape), 400, `${escape} is refused`);
    }
  });

  test('the authorization endpoint takes a form POST, as Keycloak does', async () => {
    const [path = '', query] = authorizationUrl(idp.url, REALM).url.split('?');
    const response = await fetch(path, { method: 'POST', body: new URLSearchParams(query), redirect: 'manual' });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /id="kc-form-login"/);
  });

  test('a logout confirmation counts only with the code of the page shown to this browser', async () => {
    const { tokens, browser } = await tokensFor(idp.url, REALM);
    const logoutUrl = `${endpoint(idp.url, REALM, 'logout')}?client_id=spa`;
    const page = await (await browser.fetch(logoutUrl)).text();
    const code = /name="session_code" value="([^"]+)"/.exec(page)?.[1];
    assert.ok(code, 'the confirmation form carries a session_code');
    const post = (fields: Record<string, string>) =>
      browser.fetch(logoutUrl.replace(/\?.*$/, ''), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: 'spa', confirm: 'true', ...fields }),
      });

    // What a page of another site can send: the visible fields, without the code (or with a guess).
    assert.equal((await post({})).status, 400);
    assert.equal((await post({ session_code: 'guessed' })).status, 400);
    assert.equal((await refresh(idp.url, REALM, tokens.refresh_token)).status, 200, 'the session survives');

    const fresh = /name="session_code" value="([^"]+)"/.exec(await (await browser.fetch(logoutUrl)).text())?.[1] ?? '';
    assert.equal((await post({ session_code: fresh })).status, 200);
    assert.equal((await refresh(idp.url, REALM, tokens.refresh_token)).status, 400, 'the confirmed logout ends it');
  });

  test("another user's id_token_hint asks for confirmation and ends no session", async () => {
    const alice = await tokensFor(idp.url, REALM, 'alice');
    const bob = await tokensFor(idp.url, REALM, 'bob');
    const response = await alice.browser.fetch(
      `${endpoint(idp.url, REALM, 'logout')}?${new URLSearchParams({ id_token_hint: bob.tokens.id_token, post_logout_redirect_uri: `${APP}/` })}`,
    );
    assert.equal(response.status, 200);
    assert.match(await response.text(), /id="kc-logout"/);
    assert.equal((await refresh(idp.url, REALM, alice.tokens.refresh_token)).status, 200, "the browser's session (alice) is kept");
    assert.equal((await refresh(idp.url, REALM, bob.tokens.refresh_token)).status, 200, "the hint's session (bob) is kept");

    const own = await alice.browser.fetch(
      `${endpoint(idp.url, REALM, 'logout')}?${new URLSearchParams({ id_token_hint: alice.tokens.id_token, post_logout_redirect_uri: `${APP}/` })}`,
    );
    assert.equal(own.status, 302, "the browser's own hint signs out at once");
    assert.equal((await refresh(idp.url, REALM, alice.tokens.refresh_token)).status, 400);
  });

  test('a DPoP-bound token is issued as DPoP and works only with a proof of its key', async () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const proof = async (htm: string, htu: string, accessToken?: string, signer = key) =>
      new SignJWT({
        htm,
        htu,
        jti: randomUUID(),
        ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}),
      })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: await exportJWK(signer.publicKey) })
        .setIssuedAt()
        .sign(signer.privateKey);
    const { code, verifier } = await signIn(idp.url, REALM, 'alice');
    const response = await exchange(idp.url, REALM, code, verifier, { dpop: await proof('POST', endpoint(idp.url, REALM, 'token')) });
    const tokens = (await response.json()) as { access_token: string; token_type: string };
    assert.equal(tokens.token_type, 'DPoP');

    const userinfo = endpoint(idp.url, REALM, 'userinfo');
    const call = (authorization: string, dpop?: string) => fetch(userinfo, { headers: { authorization, ...(dpop ? { dpop } : {}) } });
    const asBearer = await call(`Bearer ${tokens.access_token}`);
    assert.equal(asBearer.status, 401, 'a stolen DPoP token is no bearer token');
    assert.equal((await call(`DPoP ${tokens.access_token}`)).status, 401, 'no proof');
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    assert.equal(
      (await call(`DPoP ${tokens.access_token}`, await proof('GET', userinfo, tokens.access_token, other))).status,
      401,
      'another key',
    );
    assert.equal(
      (await call(`DPoP ${tokens.access_token}`, await proof('POST', userinfo, tokens.access_token))).status,
      401,
      'another method',
    );
    const valid = await proof('GET', userinfo, tokens.access_token);
    const proven = await call(`DPoP ${tokens.access_token}`, valid);
    assert.equal(proven.status, 200);
    assert.equal(((await proven.json()) as { preferred_username?: string }).preferred_username, 'alice');
    assert.equal((await call(`DPoP ${tokens.access_token}`, valid)).status, 401, 'a proof is used once');
  });

  test('prompt=login in a signed-in browser re-authenticates its user; another user is refused and the session kept', async () => {
    const alice = await tokensFor(idp.url, REALM, 'alice');
    const sid = String(decodeJwt(alice.tokens.access_token).sid);
    const { url } = authorizationUrl(idp.url, REALM, { prompt: 'login' });
    const page = await (await alice.browser.fetch(url)).text();
    assert.match(page, /id="username"[^>]*value="alice"/, 'the form names the signed-in user');
    const asBob = await alice.browser.signIn(new URL(url), page, 'bob', 'bob', (u) => u.origin === APP);
    assert.equal(asBob.response.status, 200);
    assert.match(await asBob.response.text(), /Invalid username or password\./);
    const frame = `${endpoint(idp.url, REALM, 'login-status-iframe.html')}/status?session_state=${encodeURIComponent(sid)}`;
    assert.equal(await (await alice.browser.fetch(frame)).text(), 'unchanged', "alice's session is still this browser's");
    const kept = await refresh(idp.url, REALM, alice.tokens.refresh_token);
    assert.equal(kept.status, 200, await kept.text());

    const again = await signIn(idp.url, REALM, 'alice', alice.browser, { prompt: 'login' });
    const tokens = (await (await exchange(idp.url, REALM, again.code, again.verifier)).json()) as { access_token: string };
    assert.equal(decodeJwt(tokens.access_token).preferred_username, 'alice');
  });

  test('a second authorization in a signed-in browser (another tab, check-sso) keeps the refresh tokens issued before', async () => {
    const first = await tokensFor(idp.url, REALM, 'alice');
    const second = await first.browser.follow(authorizationUrl(idp.url, REALM).url, (u) => u.origin === APP);
    assert.ok(new URLSearchParams(second.url.hash.slice(1)).get('code'), 'signed in again without the form');
    const kept = await refresh(idp.url, REALM, first.tokens.refresh_token);
    assert.equal(kept.status, 200, await kept.text());
  });

  test('brute-force detection set through the admin API locks a user out after failureFactor failures', async () => {
    const admin = new KcAdminClient({ baseUrl: idp.url, realmName: 'master' });
    await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: 'admin', password: 'admin' });
    await assert.rejects(admin.realms.update({ realm: 'locks' }, { failureFactor: -1 }), /failureFactor: expected a whole number/);
    await admin.realms.update({ realm: 'locks' }, { bruteForceProtected: true, failureFactor: 2 });
    const stored = await admin.realms.findOne({ realm: 'locks' });
    assert.deepEqual([stored?.bruteForceProtected, stored?.failureFactor, stored?.waitIncrementSeconds], [true, 2, 60]);

    const browser = new FormBrowser();
    const attempt = async (password: string) => {
      const { url } = authorizationUrl(idp.url, 'locks');
      const page = await (await browser.fetch(url)).text();
      return browser.signIn(new URL(url), page, 'alice', password, (u) => u.origin === APP);
    };
    for (const n of [1, 2]) assert.match(await (await attempt('wrong')).response.text(), /Invalid username or password\./, `failure ${n}`);
    const locked = await attempt('alice');
    assert.equal(locked.response.status, 200, 'the right password is refused during the lockout');
    assert.match(await locked.response.text(), /Invalid username or password\./);
    const grant = await fetch(endpoint(idp.url, 'locks', 'token'), {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'spa', username: 'alice', password: 'alice' }),
    });
    assert.equal(grant.status, 401, 'the password grant is locked too');
    assert.equal((await tokensFor(idp.url, 'locks', 'bob')).tokens.token_type, 'Bearer', 'other users are not');
  });
});
