import type { KoaContext } from 'oidc-provider';

import { acrClaim, acrRequest } from '../sessions/acr.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';
import { sessionCookieValue } from '../sessions/sessions.js';
import { sessionCookie } from '../http/cookies.js';

/**
 * oidc-provider post-middleware: when an authorization request ends with a signed-in
 * oidc-provider session, record it as the realm's SSO session (its uid is Keycloak's `sid`)
 * and set the `KEYCLOAK_SESSION` cookie that the login-status frame reads.
 */
export function trackSsoSession(runtime: RealmRuntime) {
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const { route, session } = ctx.oidc ?? {};
    if ((route !== 'authorization' && route !== 'resume') || !session?.accountId) return;
    const sso = runtime.sessions.open(session.uid, session.accountId, session.loginTs);
    if (!sso) return;
    runtime.sessions.touch(sso.id);
    if (ctx.oidc.client) runtime.sessions.join(sso.id, ctx.oidc.client.clientId, runtime.issuer);
    recordClientAcr(runtime, ctx, sso.id);
    ctx.res.appendHeader('Set-Cookie', sessionCookie(runtime, sessionCookieValue(sso.id)));
    addSessionState(ctx, sso.id);
  };
}

/** Keycloak's authorization response names the SSO session: `session_state` beside the code or tokens. */
function addSessionState(ctx: KoaContext, sid: string): void {
  if (ctx.status !== 303) return;
  const location = String(ctx.response.get('Location') ?? '');
  const hash = location.includes('#') ? location.slice(location.indexOf('#') + 1) : '';
  const granted = /(^|&)(code|access_token|id_token)=/;
  if (granted.test(hash)) {
    ctx.set('Location', `${location}&session_state=${encodeURIComponent(sid)}`);
    return;
  }
  // A relative Location is oidc-provider's own interaction URL, not the client's.
  const url = URL.canParse(location) ? new URL(location) : undefined;
  if (!url?.searchParams.has('code')) return;
  url.searchParams.append('session_state', sid);
  ctx.set('Location', url.href);
}

/**
 * What the client's tokens will say in `acr` for this authorization: the level the session reached
 * (kept in oidc-provider's `session.acr` as a number), whether this request signed in afresh or reused
 * the session, and which values the client asked for.
 */
function recordClientAcr(runtime: RealmRuntime, ctx: KoaContext, sid: string): void {
  const { client, params, session, result, route } = ctx.oidc;
  if (!client || !session) return;
  const map = runtime.loaMap(runtime.client(client.clientId));
  const fresh = route === 'resume' && Boolean((result as { login?: unknown } | undefined)?.login);
  const loa = Object.keys(map).length > 0 ? Number(session.acr ?? 1) : undefined;
  const request = acrRequest(params?.claims, params?.acr_values);
  runtime.clientAcr.set(`${sid} ${client.clientId}`, acrClaim(loa, !fresh, map, request));
}
