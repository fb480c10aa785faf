import { expect, test } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';

import { dpopProof, newDpopKey } from '@gatehouse/dev-idp/testing/dpop-proof';
import { FormBrowser } from '@gatehouse/dev-idp/testing/form-browser';
import { openSignedIn } from '../support/flows';
import { REALM_URL, SHELL } from '../support/system';

const TOKEN = `${REALM_URL}/protocol/openid-connect/token`;
const ACCOUNT = `${REALM_URL}/account`;
const STRANGER = 'http://localhost:5999';

// Web origins "+" (the redirect URIs' origins): Keycloak allows the shell's origin, with credentials, on the
// token endpoint (keycloak-js sends credentials: include) and the account endpoint (the Profile remote's read).
// Keycloak 26.7 refuses a request from any other origin outright: 403 {"error":"Invalid origin"}.
test("the token and account endpoints answer the shell's origin with credentials, and refuse any other origin", async ({ page }) => {
  const tokenResponse = page.waitForResponse((r) => r.url() === TOKEN && r.request().method() === 'POST');
  const accountResponse = page.waitForResponse((r) => r.url() === ACCOUNT && r.request().method() === 'GET');
  await openSignedIn(page, 'bob', '/profile');
  await expect(page.getByTestId('email')).toContainText('bob@example.com');

  for (const response of [await tokenResponse, await accountResponse]) {
    expect(response.status()).toBe(200);
    expect(response.headers()['access-control-allow-origin']).toBe(SHELL);
    expect(response.headers()['access-control-allow-credentials']).toBe('true');
  }

  // Node's own session, bound to a DPoP key of its own (the realm requires DPoP of gatehouse-shell, decisions/0112):
  // every request below carries a good proof, so what answers is the origin check alone
  const key = newDpopKey();
  const verifier = randomBytes(48).toString('base64url');
  const url = `${REALM_URL}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: 'gatehouse-shell',
    redirect_uri: `${SHELL}/`,
    response_type: 'code',
    response_mode: 'fragment',
    scope: 'openid role-audiences', // the account API's audience, as the shell's page token has it
    state: 'st',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })}`;
  const form = new FormBrowser();
  const { url: back } = await form.signIn(new URL(url), await (await form.fetch(url)).text(), 'bob', 'bob', (u) => u.origin === SHELL);
  const code = new URLSearchParams(back.hash.slice(1)).get('code') ?? '';
  const exchanged = await fetch(TOKEN, {
    method: 'POST',
    headers: { origin: SHELL, dpop: await dpopProof(key, 'POST', TOKEN) },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'gatehouse-shell',
      redirect_uri: `${SHELL}/`,
      code,
      code_verifier: verifier,
    }),
  });
  expect(exchanged.status, await exchanged.clone().text()).toBe(200);
  const { access_token: accessToken, refresh_token: refreshToken } = (await exchanged.json()) as Record<string, string>;
  for (const origin of [SHELL, STRANGER]) {
    const account = await fetch(ACCOUNT, {
      headers: {
        authorization: `DPoP ${accessToken}`,
        dpop: await dpopProof(key, 'GET', ACCOUNT, accessToken),
        accept: 'application/json',
        origin,
      },
    });
    const refresh = await fetch(TOKEN, {
      method: 'POST',
      headers: { origin, dpop: await dpopProof(key, 'POST', TOKEN) },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken ?? '', client_id: 'gatehouse-shell' }),
    });
    for (const response of [account, refresh]) {
      if (origin === SHELL) {
        expect(response.status).toBe(200);
        expect(response.headers.get('access-control-allow-origin')).toBe(SHELL);
      } else {
        expect(response.status).toBe(403);
        expect(await response.json()).toEqual({ error: 'Invalid origin' });
        expect(response.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
  }
});
