import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { decodeJwt } from 'jose';

import { startDevIdp } from '../src/index.js';
import type { DevIdp } from '../src/index.js';
import { callbackParams, endpoint, exchange, signIn } from './support/codeFlow.js';
import { APP, twoUserRealm } from './support/fixtures.js';

// Answers the differential test (differential/, against Keycloak 26.7) found different, fixed to Keycloak's.
const REALM = 'answers';
let idp: DevIdp;

before(async () => {
  idp = await startDevIdp({ port: 0, realms: [twoUserRealm(REALM)], quiet: true });
});
after(() => idp.close());

const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(endpoint(idp.url, REALM, 'token'), { method: 'POST', headers, body: new URLSearchParams(fields) });
const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as object) });

describe("Keycloak's answers at the token endpoint", () => {
  test('an unknown or missing client is 401 invalid_client', async () => {
    const expected = { status: 401, error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' };
    assert.deepEqual(await errorOf(await token({ grant_type: 'refresh_token', client_id: 'nobody', refresh_token: 'x' })), expected);
    assert.deepEqual(await errorOf(await token({ grant_type: 'authorization_code', code: 'x' })), expected);
  });

  test('a call from an origin the client does not allow is 403 "Invalid origin", and the code stays usable', async () => {
    const { code, verifier } = await signIn(idp.url, REALM, 'alice');
    const refused = await exchange(idp.url, REALM, code, verifier, { origin: 'http://evil.example' });
    assert.deepEqual(await errorOf(refused), { status: 403, error: 'Invalid origin' });
    const allowed = await exchange(idp.url, REALM, code, verifier, { origin: APP });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), APP);
  });

  test("refused code exchanges carry Keycloak's descriptions", async () => {
    const reused = await signIn(idp.url, REALM, 'alice');
    assert.equal((await exchange(idp.url, REALM, reused.code, reused.verifier)).status, 200);
    const again = await errorOf(await exchange(idp.url, REALM, reused.code, reused.verifier));
    assert.deepEqual(again, { status: 400, error: 'invalid_grant', error_description: 'Code not valid' });

    const pkce = await signIn(idp.url, REALM, 'alice');
    assert.deepEqual(await errorOf(await exchange(idp.url, REALM, pkce.code, `${pkce.verifier}x`)), {
      status: 400,
      error: 'invalid_grant',
      error_description: 'PKCE verification failed: Code mismatch',
    });

    const redirect = await signIn(idp.url, REALM, 'alice');
    const wrong = { grant_type: 'authorization_code', client_id: 'spa', redirect_uri: `${APP}/other`, code: redirect.code };
    assert.deepEqual(await errorOf(await token({ ...wrong, code_verifier: redirect.verifier })), {
      status: 400,
      error: 'invalid_grant',
      error_description: 'Incorrect redirect_uri',
    });

    assert.deepEqual(await errorOf(await token({ grant_type: 'magic', client_id: 'spa' })), {
      status: 400,
      error: 'unsupported_grant_type',
      error_description: 'Unsupported grant_type',
    });
  });
});

describe("Keycloak's authorization response", () => {
  test('names the SSO session in session_state, the sid of the tokens', async () => {
    const { back, code, verifier } = await signIn(idp.url, REALM, 'alice');
    const sessionState = callbackParams(back).get('session_state');
    const tokens = (await (await exchange(idp.url, REALM, code, verifier)).json()) as { access_token: string };
    assert.ok(sessionState);
    assert.equal(decodeJwt(tokens.access_token).sid, sessionState);
  });
});
