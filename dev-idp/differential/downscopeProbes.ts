import { authorizationUrl, callbackParams, decodeJwt, endpoint, exchange, signIn } from '../test/support/codeFlow.js';
import type { Tokens } from '../test/support/codeFlow.js';
import { APP, CLIENT, scopedRealm } from '../test/support/fixtures.js';
import { FormBrowser } from '../test/support/FormBrowser.js';
import { claimsObservation, normalise } from './normalise.js';
import type { Observation } from './normalise.js';
import type { Probe } from './probes.js';
import { createRealm } from './providers.js';

/** What the shell asks for at sign-in: its own audiences (`role-audiences`) and every API of the registry (decisions/0055). */
const SIGN_IN_SCOPE = 'openid role-audiences profile-api admin-api reports-api';

const refreshWith = (base: string, realm: string, refreshToken: string, scope?: string): Promise<Response> =>
  fetch(endpoint(base, realm, 'token'), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: CLIENT,
      refresh_token: refreshToken,
      ...(scope === undefined ? {} : { scope }),
    }),
  });

/** A token answer as a client sees it: status, error, the response's `scope`, which tokens came, and the access token's claims that say what it is for. */
async function answer(prefix: string, response: Response, base: string): Promise<{ out: Observation; body: Partial<Tokens> }> {
  const body = (await response.json()) as Partial<Tokens> & { error?: string; error_description?: string; scope?: string };
  const out: Observation = { [`${prefix} status`]: response.status };
  if (body.error)
    return { out: { ...out, [`${prefix} error`]: body.error, [`${prefix} error_description`]: body.error_description }, body };
  out[`${prefix} scope`] = normalise(body.scope, base, 'scope');
  out[`${prefix} tokens`] = ['access_token', 'refresh_token', 'id_token'].filter((k) => typeof body[k] === 'string');
  if (body.access_token) {
    const claims = claimsObservation(`${prefix} access`, decodeJwt(body.access_token).payload, base);
    for (const claim of ['aud', 'scope', 'azp', 'typ', 'realm_access', 'resource_access', '(exp - iat)']) {
      out[`${prefix} access.${claim}`] = claims[`${prefix} access.${claim}`];
    }
  }
  if (body.refresh_token) out[`${prefix} refresh.scope`] = normalise(decodeJwt(body.refresh_token).payload.scope, base, 'scope');
  return { out, body };
}

/** Where a bearer token is accepted besides the APIs: userinfo (needs `openid`) and Keycloak's account API (needs `account` in `aud`). */
async function acceptedAt(prefix: string, base: string, realm: string, token: string): Promise<Observation> {
  const userinfo = await fetch(endpoint(base, realm, 'userinfo'), { headers: { authorization: `Bearer ${token}` } });
  const account = await fetch(`${base}/realms/${realm}/account`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  return {
    [`${prefix} userinfo`]: userinfo.status,
    [`${prefix} userinfo WWW-Authenticate`]: userinfo.headers.get('www-authenticate')?.replace(realm, '{realm}') ?? null,
    [`${prefix} account`]: account.status,
  };
}

async function signedIn(base: string, realm: string, scope = SIGN_IN_SCOPE): Promise<Tokens> {
  const { code, verifier } = await signIn(base, realm, 'alice', new FormBrowser(), { scope });
  const response = await exchange(base, realm, code, verifier);
  if (response.status !== 200) throw new Error(`code exchange: ${response.status} ${await response.text()}`);
  return (await response.json()) as Tokens;
}

/**
 * The shell's downscoped refresh (decisions/0055) in the demo realm file's client scopes: a sign-in asking
 * for every API's scope, then a refresh per API with `scope=<that API's scope>`.
 */
export const DOWNSCOPE_PROBES: Record<string, Probe> = {
  async 'downscoped refresh'({ provider, realm }) {
    await createRealm(provider, scopedRealm(realm));
    const base = provider.url;
    const tokens = await signedIn(base, realm);
    const out: Observation = {};
    const broad = claimsObservation('broad access', decodeJwt(tokens.access_token).payload, base);
    for (const claim of ['aud', 'scope', 'azp']) out[`broad access.${claim}`] = broad[`broad access.${claim}`];
    out['broad refresh.scope'] = normalise(decodeJwt(tokens.refresh_token).payload.scope, base, 'scope');
    Object.assign(out, await acceptedAt('broad', base, realm, tokens.access_token));

    for (const scope of ['profile-api', 'openid profile-api', 'admin-api reports-api', 'address', 'nope', 'profile-api nope']) {
      const { out: seen, body } = await answer(`refresh "${scope}"`, await refreshWith(base, realm, tokens.refresh_token, scope), base);
      Object.assign(out, seen);
      if (scope === 'profile-api' && body.access_token)
        Object.assign(out, await acceptedAt(`refresh "${scope}"`, base, realm, body.access_token));
    }
    // After downscoped refreshes the session's own refresh token still gives the broad token.
    Object.assign(out, (await answer('original again', await refreshWith(base, realm, tokens.refresh_token), base)).out);

    // A session signed in without admin-api: a refresh asking for it gets a token without it, not an error.
    const narrow = await signedIn(base, realm, 'openid role-audiences profile-api');
    Object.assign(
      out,
      (await answer('not granted "admin-api"', await refreshWith(base, realm, narrow.refresh_token, 'admin-api'), base)).out,
    );

    // A sign-in asking for a scope the client does not have is refused, naming the whole parameter.
    const browser = new FormBrowser();
    const { url } = authorizationUrl(base, realm, { scope: 'openid billing-api' });
    const refused = await browser.fetch(url);
    const location = refused.headers.get('location');
    const back = location ? new URL(location, url) : undefined;
    out['sign-in "openid billing-api" status'] = refused.status;
    out['sign-in "openid billing-api" to'] = back ? back.origin === APP : null;
    if (back) {
      const params = callbackParams(back);
      out['sign-in "openid billing-api" error'] = params.get('error');
      out['sign-in "openid billing-api" error_description'] = params.get('error_description');
    }
    return out;
  },

  async 'downscoped refresh with refresh-token rotation'({ provider, realm }) {
    await createRealm(provider, { ...scopedRealm(realm), revokeRefreshToken: true });
    const base = provider.url;
    const tokens = await signedIn(base, realm);
    // Both providers tell a spent refresh token from the latest by whole seconds: one issued in the same second as the
    // last refresh is taken for the latest. The refreshes wait for the sign-in's second to pass, so the spent one is
    // older on both, whatever the machine's speed.
    const issuedAt = Number(decodeJwt(tokens.refresh_token).payload.iat);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, (issuedAt + 1) * 1000 - Date.now()) + 50));
    const down = await answer('downscoped', await refreshWith(base, realm, tokens.refresh_token, 'profile-api'), base);
    const out: Observation = { ...down.out };
    // The downscoped answer's refresh token is the session's now: it carries the sign-in's whole scope.
    const next = await answer('its refresh token, no scope', await refreshWith(base, realm, down.body.refresh_token ?? ''), base);
    Object.assign(out, next.out);
    // The token a downscoped refresh used is spent, as with any refresh under rotation.
    Object.assign(out, (await answer('the spent one', await refreshWith(base, realm, tokens.refresh_token), base)).out);
    // Not compared: what the session's latest refresh token gets after that reuse. Keycloak refuses it, with
    // "Stale token" or "Session doesn't have required client" depending on the second the requests fall in; the dev
    // IdP keeps the session (dev-idp/README.md, "Differences").
    return out;
  },
};
