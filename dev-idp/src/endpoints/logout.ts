import { compactVerify } from 'jose';

import { clearedSessionCookies, readCookies } from '../http/cookies.js';
import { readParams, redirect, sendPage } from '../http/respond.js';
import { errorPage } from '../pages/errorPage.js';
import { loggedOutPage, logoutConfirmPage } from '../pages/logoutPages.js';
import type { RealmRuntime } from '../RealmRuntime.js';
import { postLogoutRedirectUris, redirectUriMatches } from '../redirect.js';
import type { RealmRequest } from './RealmRequest.js';

interface IdTokenHint {
  typ?: string;
  sid?: string;
  azp?: string;
  aud?: string | string[];
}

/**
 * RP-initiated logout as Keycloak does it: with a valid `id_token_hint` (expired is fine) the
 * session ends and the browser goes to the registered `post_logout_redirect_uri` at once;
 * without one Keycloak asks first (`#kc-logout`). An unregistered address is never redirected to.
 */
export async function logoutEndpoint({ runtime, req, res, url }: RealmRequest): Promise<void> {
  const { realm } = runtime;
  const params = await readParams(req, url);
  const redirectUri = params.get('post_logout_redirect_uri') ?? undefined;
  const state = params.get('state') ?? undefined;
  const rawHint = params.get('id_token_hint');
  const hint = rawHint ? await verifyHint(runtime, rawHint) : undefined;
  if (rawHint && !hint) return sendPage(res, 400, errorPage(realm, 'Invalid parameter: id_token_hint'));
  // Keycloak: a client_id must be the one the ID token was issued to.
  const givenClient = params.get('client_id');
  if (hint && givenClient && !audienceOf(hint).includes(givenClient)) {
    return sendPage(res, 400, errorPage(realm, 'Invalid parameter: id_token_hint'));
  }

  const clientId = params.get('client_id') ?? hint?.azp ?? (typeof hint?.aud === 'string' ? hint.aud : undefined);
  if (redirectUri) {
    if (!clientId) {
      return sendPage(
        res,
        400,
        errorPage(
          realm,
          'Either the parameter client_id or the parameter id_token_hint is required when post_logout_redirect_uri is used.',
        ),
      );
    }
    const client = runtime.client(clientId);
    if (!client || !redirectUriMatches(redirectUri, postLogoutRedirectUris(client))) {
      return sendPage(res, 400, errorPage(realm, 'Invalid redirect uri'));
    }
  }

  const confirmed = req.method === 'POST' && params.get('confirm') === 'true';
  if (!hint && !confirmed) {
    const fields: Record<string, string> = {};
    if (clientId) fields.client_id = clientId;
    if (redirectUri) fields.post_logout_redirect_uri = redirectUri;
    if (state) fields.state = state;
    return sendPage(res, 200, logoutConfirmPage(realm, url.pathname, fields));
  }

  if (hint?.sid) runtime.sessions.end(hint.sid);
  const fromCookie = runtime.sessions.byCookie(readCookies(req).KEYCLOAK_SESSION);
  if (fromCookie) runtime.sessions.end(fromCookie.id);
  const cookies = { 'Set-Cookie': clearedSessionCookies(runtime) };
  if (!redirectUri) return sendPage(res, 200, loggedOutPage(realm), cookies);
  const target = new URL(redirectUri);
  if (state) target.searchParams.set('state', state);
  redirect(res, target.href, cookies);
}

async function verifyHint(runtime: RealmRuntime, token: string): Promise<IdTokenHint | undefined> {
  try {
    const { payload } = await compactVerify(token, runtime.keys.publicKey);
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    // Only an ID token of this realm (not its access or refresh tokens, not another realm's).
    if (claims.iss !== runtime.issuer || claims.typ !== 'ID') return undefined;
    return claims as IdTokenHint;
  } catch {
    return undefined;
  }
}

function audienceOf(hint: IdTokenHint): string[] {
  return Array.isArray(hint.aud) ? hint.aud : hint.aud ? [hint.aud] : [];
}
