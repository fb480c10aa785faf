import { createHash } from 'node:crypto';

import { FormBrowser } from '../test/support/FormBrowser.js';
import {
  authorizationUrl,
  callbackParams,
  decodeJwt,
  endpoint,
  exchange,
  KEYCLOAK_JS_ENDPOINTS,
  refresh,
  signIn,
  tokensFor,
} from '../test/support/codeFlow.js';
import { claimsObservation, cookieShape, normalise } from './normalise.js';
import type { Observation } from './normalise.js';
import { adminOf } from './providers.js';
import type { Provider } from './providers.js';
import { formOf } from './securityProbes.js';
import { APP, CLIENT } from '../test/support/fixtures.js';

export interface ProbeContext {
  provider: Provider;
  realm: string;
}

/** One comparison: the same requests to a provider, and what a client sees of the answers. */
export type Probe = (context: ProbeContext) => Promise<Observation>;

const DISCOVERY_FIELDS = ['issuer', ...KEYCLOAK_JS_ENDPOINTS, 'revocation_endpoint', 'dpop_signing_alg_values_supported'];
const DISCOVERY_MEMBERSHIP: Record<string, string[]> = {
  code_challenge_methods_supported: ['S256'],
  response_modes_supported: ['query', 'fragment'],
  response_types_supported: ['code', 'id_token token'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  id_token_signing_alg_values_supported: ['RS256'],
  token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
  scopes_supported: ['openid', 'profile', 'email'],
};

const errorOf = async (response: Response): Promise<Observation> => {
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { html: /<html/i.test(text) };
  }
  return { status: response.status, error: body.error, error_description: body.error_description };
};

const corsOf = (response: Response): Observation => ({
  status: response.status,
  'access-control-allow-origin': response.headers.get('access-control-allow-origin'),
  'access-control-allow-credentials': response.headers.get('access-control-allow-credentials'),
});

export const PROBES: Record<string, Probe> = {
  async discovery({ provider, realm }) {
    const response = await fetch(`${provider.url}/realms/${realm}/.well-known/openid-configuration`);
    const body = (await response.json()) as Record<string, unknown>;
    const out: Observation = { status: response.status };
    for (const field of DISCOVERY_FIELDS) out[field] = normalise(body[field], provider.url);
    for (const [field, wanted] of Object.entries(DISCOVERY_MEMBERSHIP)) {
      const listed = Array.isArray(body[field]) ? (body[field] as unknown[]) : [];
      for (const value of wanted) out[`${field} ∋ ${value}`] = listed.includes(value);
    }
    return out;
  },

  async 'token response and tokens'({ provider, realm }) {
    const { tokens, back, browser } = await tokensFor(provider.url, realm);
    const out: Observation = {};
    const callback = callbackParams(back);
    for (const key of [...callback.keys()].sort())
      out[`callback.${key}`] = key === 'code' || key === 'session_state' ? '<id>' : normalise(callback.get(key), provider.url);
    for (const [key, value] of Object.entries(tokens)) {
      out[`response.${key}`] = /_token$/.test(key) ? typeof value : normalise(value, provider.url, key === 'session_state' ? 'sid' : key);
    }
    for (const kind of ['access_token', 'id_token', 'refresh_token'] as const) {
      const { header, payload } = decodeJwt(tokens[kind]);
      out[`${kind}.header.alg`] = header.alg;
      out[`${kind}.header.typ`] = header.typ;
      out[`${kind}.header.kid`] = typeof header.kid;
      Object.assign(out, claimsObservation(kind, payload, provider.url));
    }
    const access = decodeJwt(tokens.access_token).payload;
    out['access_token.sid = session_state'] = access.sid === tokens.session_state;
    out['id_token.sid = access_token.sid'] = decodeJwt(tokens.id_token).payload.sid === access.sid;
    // The login-status frame compares this cookie with the hash of the page's sid (Keycloak 26.7: SHA-384).
    out['KEYCLOAK_SESSION = base64url(SHA-384(sid))'] =
      browser.cookies.get('KEYCLOAK_SESSION') === createHash('sha384').update(String(access.sid)).digest('base64url');
    return out;
  },

  async 'token errors'({ provider, realm }) {
    const base = provider.url;
    const out: Observation = {};
    const reused = await signIn(base, realm, 'alice');
    await exchange(base, realm, reused.code, reused.verifier);
    out['reused code'] = await errorOf(await exchange(base, realm, reused.code, reused.verifier));
    const wrongVerifier = await signIn(base, realm, 'alice');
    out['wrong PKCE verifier'] = await errorOf(await exchange(base, realm, wrongVerifier.code, `${wrongVerifier.verifier}x`));
    const wrongRedirect = await signIn(base, realm, 'alice');
    out['wrong redirect_uri'] = await errorOf(
      await fetch(endpoint(base, realm, 'token'), {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: CLIENT,
          redirect_uri: `${APP}/other`,
          code: wrongRedirect.code,
          code_verifier: wrongRedirect.verifier,
        }),
      }),
    );
    out['unknown client'] = await errorOf(
      await fetch(endpoint(base, realm, 'token'), {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'nobody', refresh_token: 'x' }),
      }),
    );
    out['bad grant type'] = await errorOf(
      await fetch(endpoint(base, realm, 'token'), {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'magic', client_id: CLIENT }),
      }),
    );
    out['malformed refresh token'] = await errorOf(await refresh(base, realm, 'not-a-token'));
    const { tokens } = await tokensFor(base, realm);
    const admin = await adminOf(provider);
    admin.setConfig({ realmName: realm });
    const [alice] = await admin.users.find({ username: 'alice', exact: true });
    await admin.users.logout({ id: alice?.id ?? '' });
    out['refresh after the session ended (admin logout)'] = await errorOf(await refresh(base, realm, tokens.refresh_token));
    return out;
  },

  async 'CORS on the token endpoint'({ provider, realm }) {
    const out: Observation = {};
    for (const [label, origin] of [
      ['allowed origin', APP],
      ['unknown origin', 'http://evil.example'],
    ] as const) {
      const { code, verifier } = await signIn(provider.url, realm, 'alice');
      out[`${label}: code exchange`] = corsOf(await exchange(provider.url, realm, code, verifier, { origin }));
      const preflight = await fetch(endpoint(provider.url, realm, 'token'), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      out[`${label}: preflight`] = corsOf(preflight);
    }
    return out;
  },

  async 'login-status frame'({ provider, realm }) {
    const frame = await fetch(endpoint(provider.url, realm, 'login-status-iframe.html'));
    const init = (origin: string, client = CLIENT) =>
      fetch(`${endpoint(provider.url, realm, 'login-status-iframe.html/init')}?${new URLSearchParams({ client_id: client, origin })}`);
    return {
      'frame status': frame.status,
      'frame content-type': frame.headers.get('content-type')?.split(';')[0],
      'init, allowed origin': (await init(APP)).status,
      'init, unknown origin': (await init('http://evil.example')).status,
      'init, unknown client': (await init(APP, 'nobody')).status,
    };
  },

  async 'cookies of a sign-in'({ provider, realm }) {
    const browser = new FormBrowser();
    const lines: string[] = [];
    const original = browser.fetch.bind(browser);
    browser.fetch = async (url, init) => {
      const response = await original(url, init);
      lines.push(...response.headers.getSetCookie());
      return response;
    };
    await signIn(provider.url, realm, 'alice', browser);
    const out: Observation = {};
    for (const line of lines) {
      const { name, shape } = cookieShape(line);
      out[name] = out[name] ? `${String(out[name])} | ${shape}` : shape;
    }
    return out;
  },

  async 'userinfo and account'({ provider, realm }) {
    const { tokens } = await tokensFor(provider.url, realm);
    const auth = { authorization: `bearer ${tokens.access_token}` };
    const userinfo = await fetch(endpoint(provider.url, realm, 'userinfo'), { headers: auth });
    const account = await fetch(`${provider.url}/realms/${realm}/account`, {
      headers: { ...auth, accept: 'application/json', origin: APP },
    });
    const accountBody = (await account.json()) as Record<string, unknown>;
    const noToken = await fetch(endpoint(provider.url, realm, 'userinfo'));
    return {
      'userinfo status': userinfo.status,
      userinfo: normalise(await userinfo.json(), provider.url),
      'userinfo without a token': noToken.status,
      'userinfo without a token: WWW-Authenticate': noToken.headers.get('www-authenticate')?.split(/[ ,]/)[0],
      'account status': account.status,
      'account fields': Object.keys(accountBody).sort(),
      'account CORS origin': account.headers.get('access-control-allow-origin'),
      'account CORS credentials': account.headers.get('access-control-allow-credentials'),
    };
  },

  async 'logout with id_token_hint'({ provider, realm }) {
    const { tokens, browser } = await tokensFor(provider.url, realm);
    const url = `${endpoint(provider.url, realm, 'logout')}?${new URLSearchParams({
      client_id: CLIENT,
      post_logout_redirect_uri: `${APP}/`,
      id_token_hint: tokens.id_token,
      state: 'bye',
    })}`;
    const response = await browser.fetch(url);
    const after = await refresh(provider.url, realm, tokens.refresh_token);
    return {
      status: response.status,
      location: response.headers.get('location'),
      'refresh afterwards': (await errorOf(after)).error,
    };
  },

  async 'logout without id_token_hint'({ provider, realm }) {
    const { tokens, browser } = await tokensFor(provider.url, realm);
    const url = `${endpoint(provider.url, realm, 'logout')}?${new URLSearchParams({ client_id: CLIENT, post_logout_redirect_uri: `${APP}/` })}`;
    const response = await browser.fetch(url);
    const page = await response.text();
    const beforeConfirm = await refresh(provider.url, realm, tokens.refresh_token);
    const { action, fields } = formOf(page, url);
    const confirm = await browser.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields,
    });
    return {
      status: response.status,
      'has #kc-logout': /id="kc-logout"/.test(page),
      'refresh before confirming': beforeConfirm.status,
      'confirm status': confirm.status,
      'confirm location': confirm.headers.get('location'),
      'refresh after confirming': (await errorOf(await refresh(provider.url, realm, tokens.refresh_token))).error,
    };
  },

  async 'authorization endpoint'({ provider, realm }) {
    const { url } = authorizationUrl(provider.url, realm);
    const [path, query = ''] = url.split('?');
    const posted = await fetch(path ?? '', { method: 'POST', body: new URLSearchParams(query), redirect: 'manual' });
    const badRedirect = await fetch(url.replace(encodeURIComponent(`${APP}/`), encodeURIComponent('http://evil.example/')), {
      redirect: 'manual',
    });
    const wild = (target: string) =>
      fetch(authorizationUrl(provider.url, realm, { client_id: 'wild', redirect_uri: target }).url, { redirect: 'manual' });
    return {
      GET: (await fetch(url, { redirect: 'manual' })).status,
      POST: posted.status,
      'POST shows the login form': /id="kc-form-login"/.test(await posted.text()),
      'unregistered redirect_uri': badRedirect.status,
      'wildcard: inside': (await wild(`${APP}/app/page`)).status,
      'wildcard: ../ out of it': (await wild(`${APP}/app/../other`)).status,
      'wildcard: %2e%2e out of it': (await wild(`${APP}/app/%2e%2e/other`)).status,
      'wildcard: %2E%2E out of it': (await wild(`${APP}/app/%2E%2E/other`)).status,
      'wildcard: ..%2f out of it': (await wild(`${APP}/app/..%2fother`)).status,
      'unknown client': (await fetch(url.replace(`client_id=${CLIENT}`, 'client_id=nobody'), { redirect: 'manual' })).status,
    };
  },
};
