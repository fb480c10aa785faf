// Security round four: the line the dev provider logs for a request that failed holds the path
// and the query's parameter names, never their values (a code, an id_token_hint, a state, a token).
import assert from 'node:assert/strict';
import { after, before, mock, test } from 'node:test';

import { loggedUrl } from '../src/http/loggedUrl.js';
import type { RealmRuntime } from '../src/server/RealmRuntime.js';
import { DevIdpServer } from '../src/server/server.js';

const SECRETS = {
  code: 'CODE-5ec7e7',
  id_token_hint: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl',
  state: 'STATE-0d1e',
  session_state: 'SESSION-STATE-77',
  access_token: 'ACCESS-TOKEN-abc',
  login_hint: 'alice@example.com',
};

let server: DevIdpServer;
let base: string;

before(async () => {
  server = new DevIdpServer();
  base = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
  // A realm whose handling fails unexpectedly: the server's last resort answers 500 and logs the request.
  server.realms.set('broken', {
    get realm(): never {
      throw new Error('the realm could not be read');
    },
  } as unknown as RealmRuntime);
});

after(() => server.close());

test('a failed request is logged with its path and the names of its query, no value', async () => {
  const logged: unknown[][] = [];
  const error = mock.method(console, 'error', (...args: unknown[]) => void logged.push(args));
  try {
    const query = new URLSearchParams({ ...SECRETS, client_id: 'gatehouse-shell' });
    const response = await fetch(`${base}/realms/broken/protocol/openid-connect/logout?${query}`);
    assert.equal(response.status, 500);
    assert.deepEqual(await response.json(), { error: 'server_error', error_description: 'unexpected error in the dev IdP' });
  } finally {
    error.mock.restore();
  }
  assert.equal(logged.length, 1, 'one line for the failed request');
  const [prefix, method, url, thrown] = logged[0] ?? [];
  assert.deepEqual(
    { prefix, method, url },
    {
      prefix: 'dev-idp: request failed',
      method: 'GET',
      url: '/realms/broken/protocol/openid-connect/logout?code=…&id_token_hint=…&state=…&session_state=…&access_token=…&login_hint=…&client_id=…',
    },
  );
  assert.equal((thrown as Error).message, 'the realm could not be read');
  const line = logged[0]?.map((part) => (part instanceof Error ? `${part.message}\n${part.stack}` : String(part))).join(' ') ?? '';
  for (const [name, value] of Object.entries(SECRETS)) {
    assert.ok(!line.includes(value) && !line.includes(encodeURIComponent(value)), `the log holds the value of ${name}: ${line}`);
  }
});

test('loggedUrl: names kept, values and fragments dropped, a path without a query as it is', () => {
  assert.equal(loggedUrl('/realms/x/account'), '/realms/x/account');
  assert.equal(loggedUrl(undefined), '/');
  assert.equal(loggedUrl('/p?'), '/p');
  assert.equal(loggedUrl('/p?flag&code=a=b&&token=%20x#frag'), '/p?flag=…&code=…&token=…');
  assert.equal(loggedUrl('/p#code=secret'), '/p');
});
