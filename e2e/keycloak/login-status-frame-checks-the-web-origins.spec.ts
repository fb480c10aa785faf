import { expect, test } from '@playwright/test';
import { REALM_URL } from '../support/system';

const INIT = `${REALM_URL}/protocol/openid-connect/login-status-iframe.html/init`;

// The frame's first call: 204 when the client is enabled and the origin is one of its web origins, else 403
// (keycloak-js then reports the session as changed). Web origins "+" = the redirect URIs' origins, dev and preview.
test("the login-status frame's init answers 204 for the shell's origins and 403 for any other", async ({ request }) => {
  const init = async (clientId: string, origin: string): Promise<number> =>
    (await request.get(INIT, { params: { client_id: clientId, origin }, maxRedirects: 0 })).status();

  for (const port of [3000, 3001, 3002, 3003, 4000, 4001, 4002, 4003]) {
    expect(await init('gatehouse-shell', `http://localhost:${port}`), `port ${port}`).toBe(204);
  }
  expect(await init('gatehouse-shell', 'http://localhost:5999')).toBe(403);
  expect(await init('gatehouse-shell', 'https://localhost:3000')).toBe(403);
  expect(await init('reports', 'http://localhost:3000')).toBe(403);
  expect(await init('no-such-client', 'http://localhost:3000')).toBe(403);
});
