import type { KoaContext } from 'oidc-provider';

import type { RealmRuntime } from '../RealmRuntime.js';
import { sessionCookieValue } from '../sessions.js';
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
    ctx.res.appendHeader('Set-Cookie', sessionCookie(runtime, sessionCookieValue(sso.id)));
  };
}
