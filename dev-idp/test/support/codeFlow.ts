import { createHash, randomBytes } from 'node:crypto';

import { FormBrowser } from './FormBrowser.js';
import { APP, CLIENT } from './fixtures.js';

/** One signed-in browser: its cookie jar, the code it got back and the verifier of that code. */
export interface SignedIn {
  browser: FormBrowser;
  code: string;
  verifier: string;
  /** the redirect the provider sent the browser back with */
  back: URL;
}

export const endpoint = (base: string, realm: string, path: string): string => `${base}/realms/${realm}/protocol/openid-connect/${path}`;

/** The discovery document's members naming an endpoint of the realm under `protocol/openid-connect/` that keycloak-js calls. */
export const KEYCLOAK_JS_ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'end_session_endpoint',
  'jwks_uri',
  'check_session_iframe',
] as const;

/** keycloak-js's authorization request: code flow, PKCE S256, fragment response mode. */
export function authorizationUrl(base: string, realm: string, extra: Record<string, string> = {}): { url: string; verifier: string } {
  const verifier = randomBytes(48).toString('base64url');
  const params = new URLSearchParams({
    client_id: CLIENT,
    redirect_uri: `${APP}/`,
    state: 'st',
    response_mode: 'fragment',
    response_type: 'code',
    scope: 'openid',
    nonce: 'nn',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url: `${endpoint(base, realm, 'auth')}?${params}`, verifier };
}

/** The parameters of a redirect back to the app (fragment or query). */
export function callbackParams(back: URL): URLSearchParams {
  return new URLSearchParams(back.hash ? back.hash.slice(1) : back.search);
}

/** Signs in through the provider's own HTML form, as a person would, in `browser` (a new one by default). */
export async function signIn(
  base: string,
  realm: string,
  username: string,
  browser = new FormBrowser(),
  extra: Record<string, string> = {},
): Promise<SignedIn> {
  const { url, verifier } = authorizationUrl(base, realm, extra);
  const page = await browser.fetch(url);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`${url}: ${page.status} ${html.slice(0, 300)}`);
  const { url: back } = await browser.signIn(new URL(url), html, username, username, (u) => u.origin === APP);
  const code = callbackParams(back).get('code');
  if (!code) throw new Error(`no code in ${back.href}`);
  return { browser, code, verifier, back };
}

export function exchange(
  base: string,
  realm: string,
  code: string,
  verifier: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(endpoint(base, realm, 'token'), {
    method: 'POST',
    headers,
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: CLIENT,
      redirect_uri: `${APP}/`,
      code,
      code_verifier: verifier,
    }),
  });
}

export function refresh(base: string, realm: string, refreshToken: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoint(base, realm, 'token'), {
    method: 'POST',
    headers,
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: CLIENT, refresh_token: refreshToken }),
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
  [key: string]: unknown;
}

/** Signs in and exchanges the code: the browser (with its provider cookies) and the token response. */
export async function tokensFor(base: string, realm: string, username = 'alice'): Promise<SignedIn & { tokens: Tokens }> {
  const signedIn = await signIn(base, realm, username);
  const response = await exchange(base, realm, signedIn.code, signedIn.verifier);
  if (response.status !== 200) throw new Error(`code exchange: ${response.status} ${await response.text()}`);
  return { ...signedIn, tokens: (await response.json()) as Tokens };
}

export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header = '', payload = ''] = token.split('.');
  const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: decode(header), payload: decode(payload) };
}
