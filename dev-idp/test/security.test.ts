import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startDevIdp } from '../src/index.js';
import type { DevIdp } from '../src/index.js';
import { authorizationUrl } from './support/codeFlow.js';
import { APP, twoUserRealm } from './support/fixtures.js';

// Issue 24's findings in the dev IdP, one regression test each; Keycloak 26.7's answers, which these
// follow, are measured by differential/ (npm run test:differential).
const REALM = 'sec';
let idp: DevIdp;

before(async () => {
  idp = await startDevIdp({ port: 0, realms: [twoUserRealm(REALM)], quiet: true });
});
after(() => idp.close());

describe('security (issue 24)', () => {
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
});
