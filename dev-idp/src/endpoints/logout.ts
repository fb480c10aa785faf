import type { IncomingMessage } from 'node:http';

import { compactVerify } from 'jose';

import { clearedSessionCookies, readCookies } from '../http/cookies.js';
import { cookieAttributes } from '../http/frontendUrl.js';
import { readParams, redirect, sendPage } from '../http/respond.js';
import { errorPage } from '../pages/errorPage.js';
import { loggedOutPage, logoutConfirmPage } from '../pages/logoutPages.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';
import { postLogoutRedirectUris, redirectUriMatches } from '../sessions/redirect.js';
import type { RealmRequest } from './RealmRequest.js';

const CONFIRMATION_COOKIE = 'KC_LOGOUT_CONFIRMATION';
const CONFIRMATION_REFUSED =
  'Logout failed: this confirmation was not sent from the logout page shown to this browser, or it expired. Open the logout link again.';

interface IdTokenHint {
  typ?: string;
  sid?: string;
  azp?: string;
  aud?: string | string[];
}

/**
 * RP-initiated logout as Keycloak does it: with a valid `id_token_hint` (expired is fine) of this
 * browser's session, or of any session when the browser has none, that session ends and the browser
 * goes to the registered `post_logout_redirect_uri` at once; without a hint, or with one of another
 * session, Keycloak asks first (`#kc-logout`), and only a confirmation carrying the code of the page
 * this browser was shown counts. An unregistered address is never redirected to.
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

  const browserSession = runtime.sessions.byCookie(readCookies(req).KEYCLOAK_SESSION);
  const confirming = req.method === 'POST' && params.get('confirm') === 'true';
  if (confirming && !runtime.logoutConfirmations.consume(confirmationFrom(req, params))) {
    return sendPage(res, 400, errorPage(realm, CONFIRMATION_REFUSED), { 'Set-Cookie': confirmationCookie(runtime, '') });
  }
  // Keycloak asks when there is no hint, and when the hint names another session than this browser's.
  const foreignHint = hint !== undefined && browserSession !== undefined && hint.sid !== browserSession.id;
  if (!confirming && (!hint || foreignHint)) {
    const code = runtime.logoutConfirmations.issue();
    const fields: Record<string, string> = { session_code: code };
    if (clientId) fields.client_id = clientId;
    if (redirectUri) fields.post_logout_redirect_uri = redirectUri;
    if (state) fields.state = state;
    return sendPage(res, 200, logoutConfirmPage(realm, url.pathname, fields), { 'Set-Cookie': confirmationCookie(runtime, code) });
  }

  // This browser's session ends; without one, the session the hint names (Keycloak's doBrowserLogout: browserLogout
  // for the browser's own session, backchannelLogout for the hint's). Its clients' back-channel logout tokens are
  // posted beside the answer, never awaited by it.
  if (browserSession) void runtime.logOut(browserSession.id, 'browser');
  else if (hint?.sid) void runtime.logOut(hint.sid, 'backchannel');
  const cookies = { 'Set-Cookie': [...clearedSessionCookies(runtime), confirmationCookie(runtime, '')] };
  if (!redirectUri) return sendPage(res, 200, loggedOutPage(realm), cookies);
  const target = new URL(redirectUri);
  if (state) target.searchParams.set('state', state);
  redirect(res, target.href, cookies);
}

/**
 * The confirmation's code as the browser that was shown the page holds it: the form's `session_code` must
 * equal its cookie, so a page of another site cannot post a confirmation (it can neither read nor set it).
 */
function confirmationFrom(req: IncomingMessage, params: URLSearchParams): string | undefined {
  const code = params.get('session_code');
  return code && code === readCookies(req)[CONFIRMATION_COOKIE] ? code : undefined;
}

/** The browser's half of a logout confirmation; `code` empty clears it. */
function confirmationCookie(runtime: RealmRuntime, code: string): string {
  return `${CONFIRMATION_COOKIE}=${code}; Path=${runtime.path}/; Max-Age=${code ? 1800 : 0}; ${cookieAttributes()}; HttpOnly`;
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
