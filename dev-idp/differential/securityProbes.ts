import { FormBrowser } from '../test/support/FormBrowser.js';
import { dpopProof, newDpopKey } from '../test/support/dpopProof.js';
import { authorizationUrl, callbackParams, decodeJwt, endpoint, exchange, refresh, signIn, tokensFor } from '../test/support/codeFlow.js';
import type { Observation } from './normalise.js';
import type { Probe } from './probes.js';
import { adminOf } from './providers.js';
import { APP, CLIENT } from '../test/support/fixtures.js';

/** The confirmation form of a logout page: its action and its fields. */
export function formOf(page: string, base: string): { action: URL; fields: URLSearchParams } {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  const fields = new URLSearchParams();
  for (const input of (form?.[2] ?? '').matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields.set(name, value.replace(/&amp;/g, '&'));
  }
  return { action: new URL((form?.[1] ?? '').replace(/&amp;/g, '&'), base), fields };
}

/** the first security round's findings, asked of both providers: the dev IdP must answer as Keycloak does. */
export const SECURITY_PROBES: Record<string, Probe> = {
  async 'logout confirmation without its session code (cross-site POST)'({ provider, realm }) {
    const { tokens, browser } = await tokensFor(provider.url, realm);
    const url = `${endpoint(provider.url, realm, 'logout')}?${new URLSearchParams({ client_id: CLIENT })}`;
    const page = await (await browser.fetch(url)).text();
    const { action, fields } = formOf(page, url);
    const secret = fields.get('session_code');
    fields.delete('session_code');
    const forged = await browser.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      body: fields,
    });
    return {
      'form carries a session_code': typeof secret === 'string' && secret.length >= 16,
      'forged POST status': forged.status,
      'session still active': (await refresh(provider.url, realm, tokens.refresh_token)).status,
    };
  },

  async "top-level logout with another user's id_token_hint"({ provider, realm }) {
    const alice = await tokensFor(provider.url, realm, 'alice');
    const bob = await tokensFor(provider.url, realm, 'bob');
    const url = `${endpoint(provider.url, realm, 'logout')}?${new URLSearchParams({
      id_token_hint: bob.tokens.id_token,
      post_logout_redirect_uri: `${APP}/`,
    })}`;
    const response = await alice.browser.fetch(url);
    return {
      status: response.status,
      location: response.headers.get('location')?.replace(APP, '{app}'),
      "the cookie's session (alice)": (await refresh(provider.url, realm, alice.tokens.refresh_token)).status,
      "the hint's session (bob)": (await refresh(provider.url, realm, bob.tokens.refresh_token)).status,
    };
  },

  async 'prompt=login as another user'({ provider, realm }) {
    const alice = await tokensFor(provider.url, realm, 'alice');
    const { url } = authorizationUrl(provider.url, realm, { prompt: 'login' });
    const page = await (await alice.browser.fetch(url)).text();
    const asBob = await alice.browser.signIn(new URL(url), page, 'bob', 'bob', (u) => u.origin === APP);
    const again = await signIn(provider.url, realm, 'alice', alice.browser, { prompt: 'login' });
    const tokens = (await (await exchange(provider.url, realm, again.code, again.verifier)).json()) as { access_token: string };
    const { payload } = decodeJwt(tokens.access_token);
    return {
      'the form shows the signed-in user': /value="alice"/.test(page),
      "bob's credentials: status": asBob.response.status,
      "bob's credentials: refused": /Invalid username or password\./.test(await asBob.response.text()),
      "alice's earlier refresh token": (await refresh(provider.url, realm, alice.tokens.refresh_token)).status,
      're-authenticating alice: user': payload.preferred_username,
      're-authenticating alice: same session': payload.sid === decodeJwt(alice.tokens.access_token).payload.sid,
    };
  },

  async 'a second authorization in a signed-in browser'({ provider, realm }) {
    const first = await tokensFor(provider.url, realm, 'alice');
    const second = await first.browser.follow(authorizationUrl(provider.url, realm).url, (u) => u.origin === APP);
    return {
      'signed in without the form': callbackParams(second.url).has('code'),
      'first refresh token still works': (await refresh(provider.url, realm, first.tokens.refresh_token)).status,
    };
  },

  async DPoP({ provider, realm }) {
    const key = newDpopKey();
    const signedIn = await signIn(provider.url, realm, 'alice');
    const tokenUrl = endpoint(provider.url, realm, 'token');
    const response = await exchange(provider.url, realm, signedIn.code, signedIn.verifier, {
      dpop: await dpopProof(key, 'POST', tokenUrl),
    });
    const tokens = (await response.json()) as { access_token: string; token_type: string; refresh_token: string };
    const userinfoUrl = endpoint(provider.url, realm, 'userinfo');
    const asBearer = await fetch(userinfoUrl, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const withProof = await fetch(userinfoUrl, {
      headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await dpopProof(key, 'GET', userinfoUrl, tokens.access_token) },
    });
    const withoutProof = await fetch(userinfoUrl, { headers: { authorization: `DPoP ${tokens.access_token}` } });
    const refreshNoProof = await refresh(provider.url, realm, tokens.refresh_token);
    return {
      'token status': response.status,
      token_type: tokens.token_type,
      'access_token.cnf.jkt': typeof (decodeJwt(tokens.access_token).payload.cnf as { jkt?: unknown } | undefined)?.jkt,
      'userinfo as Bearer': asBearer.status,
      'userinfo as DPoP with a proof': withProof.status,
      'userinfo as DPoP without a proof': withoutProof.status,
      'refresh without a proof': refreshNoProof.status,
    };
  },

  async 'brute-force protection set through the admin API'({ provider, realm }) {
    const admin = await adminOf(provider);
    const put = await admin.realms
      .update({ realm }, { bruteForceProtected: true, failureFactor: 2 })
      .then(() => 204)
      .catch((error: { response?: Response }) => error.response?.status ?? 'error');
    const stored = await admin.realms.findOne({ realm });
    const out: Observation = { 'PUT status': put, 'GET bruteForceProtected': stored?.bruteForceProtected };
    const browser = new FormBrowser();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const { url } = authorizationUrl(provider.url, realm);
      const page = await (await browser.fetch(url)).text();
      const wrong = await browser.signIn(new URL(url), page, 'alice', 'wrong', (u) => u.origin === APP);
      out[`wrong password ${attempt}`] = wrong.response.status;
    }
    const right = await signIn(provider.url, realm, 'alice', browser).then(
      (s) => `signed in (${callbackParams(s.back).has('code')})`,
      () => 'refused',
    );
    out['right password after 3 failures'] = right;
    return out;
  },
};
