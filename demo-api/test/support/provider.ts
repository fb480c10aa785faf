// What demo-api's tests share: a real identity provider (the dev IdP started in the test, or the one DEMO_API_IDP_URL
// names: a Keycloak 26 from `npm run keycloak`, admin/admin), the demo realm file imported under a test name through
// the admin API, alice signed in through the login form as the shell signs in, and DPoP keys and proofs (RFC 9449).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import KcAdminClient from '@keycloak/keycloak-admin-client';

import { startDevIdp } from '@gatehouse/dev-idp';
import type { RealmRepresentation } from '@gatehouse/dev-idp';
import { authorizationUrl, FormBrowser } from '@gatehouse/dev-idp/testing';
import { dpopProof, newDpopKey, thumbprint } from '@gatehouse/dev-idp/testing/dpop-proof';

const REALM_FILE = fileURLToPath(new URL('../../../deploy/keycloak/gatehouse-realm.json', import.meta.url));
export const CLIENT = 'gatehouse-shell';
export const APP = 'http://localhost:3000';
/** What the shell asks for at sign-in (decisions/0055). */
export const SIGN_IN_SCOPE = 'openid role-audiences profile-api admin-api reports-api';

export interface Provider {
  base: string;
  admin: KcAdminClient;
  /** imports the demo realm file as `name` (replacing a realm of that name), as `change` makes it */
  createRealm(name: string, change?: (rep: RealmRepresentation) => RealmRepresentation): Promise<void>;
  /** deletes the realms it created, and stops the dev IdP it started */
  close(): Promise<void>;
}

/** The provider the tests get tokens from, signed in to its admin API. */
export async function startProvider(): Promise<Provider> {
  let base: string;
  let closeIdp = async () => {};
  if (process.env.DEMO_API_IDP_URL) {
    base = process.env.DEMO_API_IDP_URL.replace(/\/$/, '');
  } else {
    const idp = await startDevIdp({ quiet: true });
    base = idp.url;
    closeIdp = () => idp.close();
  }
  const admin = new KcAdminClient({ baseUrl: base, realmName: 'master' });
  await admin.auth({ grantType: 'password', clientId: 'admin-cli', username: 'admin', password: 'admin' });
  const created: string[] = [];
  return {
    base,
    admin,
    async createRealm(name, change = (rep) => rep) {
      // The users' default roles are named after the realm.
      const rep = JSON.parse(
        readFileSync(REALM_FILE, 'utf8').replaceAll('default-roles-gatehouse', `default-roles-${name}`),
      ) as RealmRepresentation;
      await admin.realms.del({ realm: name }).catch(() => {});
      await admin.realms.create({ ...change(rep), realm: name } as Parameters<KcAdminClient['realms']['create']>[0]);
      created.push(name);
    },
    async close() {
      for (const realm of created) await admin.realms.del({ realm }).catch(() => {});
      await closeIdp();
    },
  };
}

export type DpopKey = ReturnType<typeof newDpopKey> & { jkt: string };

/** A P-256 key pair for DPoP proofs, as auth-lib's (ES256), with its RFC 7638 thumbprint. */
export async function dpopKey(): Promise<DpopKey> {
  const pair = newDpopKey();
  return { ...pair, jkt: await thumbprint(pair) };
}

/**
 * A DPoP proof (RFC 9449 4.2) for one request, signed by a key of `dpopKey()`; its last argument names what it gets wrong
 * on purpose. The dev IdP's tests make theirs with it too.
 */
export { dpopProof };

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  id_token?: string;
  token_type: string;
}

const tokenEndpoint = (base: string, realm: string) => `${base}/realms/${realm}/protocol/openid-connect/token`;

/**
 * Signs alice in through the login form and exchanges the code, as the shell does: with a DPoP proof of `key` its
 * tokens are bound to that key (`cnf.jkt`, token_type DPoP), without one they are bearer tokens.
 */
export async function signIn(
  base: string,
  realm: string,
  { key, clientId = CLIENT, scope = SIGN_IN_SCOPE }: { key?: DpopKey; clientId?: string; scope?: string } = {},
): Promise<TokenResponse> {
  const { url, verifier } = authorizationUrl(base, realm, { client_id: clientId, scope });
  const browser = new FormBrowser();
  const page = await browser.fetch(url);
  const { url: back } = await browser.signIn(new URL(url), await page.text(), 'alice', 'alice', (u) => u.origin === APP);
  const code = new URLSearchParams(back.hash.slice(1)).get('code') ?? '';
  const endpoint = tokenEndpoint(base, realm);
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: key ? { dpop: await dpopProof(key, 'POST', endpoint) } : {},
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      redirect_uri: `${APP}/`,
      code,
      code_verifier: verifier,
    }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  const tokens = (await response.json()) as TokenResponse;
  assert.equal(tokens.token_type, key ? 'DPoP' : 'Bearer');
  return tokens;
}

/** The downscoped refresh (decisions/0054): an access token for one API's scope, with a proof of `key` when the session is bound to it. */
export async function tokenFor(base: string, realm: string, scope: string, refreshToken: string, key?: DpopKey): Promise<string> {
  const endpoint = tokenEndpoint(base, realm);
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: key ? { dpop: await dpopProof(key, 'POST', endpoint) } : {},
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: CLIENT, refresh_token: refreshToken, scope }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return ((await response.json()) as { access_token: string }).access_token;
}

/** `GET url` with `token` as a bearer token. */
export const bearerCall = (url: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

/** `GET url` with `token` as a DPoP-bound token and a fresh proof of `key` for it (or the `proof` given). */
export async function dpopCall(
  url: string,
  token: string,
  key: DpopKey,
  { proof, method = 'GET' }: { proof?: string; method?: string } = {},
) {
  const target = new URL(url);
  target.search = '';
  return fetch(url, {
    method,
    headers: { authorization: `DPoP ${token}`, dpop: proof ?? (await dpopProof(key, method, target.href, token)) },
  });
}

/**
 * The browser's CORS preflight for a request to `url` from `origin`: by default a remote's (localhost:3001) `GET` with
 * Authorization and DPoP, as auth-lib sends it.
 */
export const preflight = (
  url: string,
  {
    origin = 'http://localhost:3001',
    method = 'GET',
    headers = 'authorization,dpop',
  }: { origin?: string; method?: string; headers?: string } = {},
) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

/** The algorithms the API's DPoP challenge names. */
export const ALGS = 'ES256 ES384 ES512 PS256 PS384 PS512 RS256 RS384 RS512 EdDSA';

/**
 * A 401's reason, which the body and `WWW-Authenticate` both carry: a DPoP challenge (RFC 9449 7.1) with the error
 * code `error` (`invalid_token` for the token, `invalid_dpop_proof` for its proof).
 */
export async function refusal(
  response: Response,
  error: 'invalid_token' | 'invalid_dpop_proof' = 'invalid_token',
  realm = 'profile-api',
): Promise<string> {
  assert.equal(response.status, 401, 'the API refuses the request');
  const reason = await response.text();
  assert.equal(
    response.headers.get('www-authenticate'),
    `DPoP realm="${realm}", error="${error}", error_description="${reason.replace(/["\\]/g, '\\$&')}", algs="${ALGS}"`,
  );
  return reason;
}
