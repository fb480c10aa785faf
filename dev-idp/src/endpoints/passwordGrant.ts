import type { IncomingMessage, ServerResponse } from 'node:http';

import { grantedScope, refreshTokenScope } from '../tokens/claims.js';
import { sendJson, sendOAuthError } from '../http/respond.js';
import { passwordAccepted } from '../sessions/passwordCheck.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';
import type { Client } from '../realm/model.js';
import { signAccessToken, signIdToken, signRefreshToken } from '../tokens/tokens.js';

/** The client id of an HTTP Basic `Authorization` header, if any. */
export function basicClientId(req: IncomingMessage): string | undefined {
  return basicCredentials(req)?.[0];
}

function basicCredentials(req: IncomingMessage): [string, string] | undefined {
  const match = /^basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const index = decoded.indexOf(':');
  if (index < 0) return undefined;
  return [decodeURIComponent(decoded.slice(0, index)), decodeURIComponent(decoded.slice(index + 1))];
}

/**
 * Keycloak's direct access grant (`grant_type=password`), which oidc-provider does not
 * implement. Used by the admin client (`admin-cli` in realm `master`) and by clients with
 * `directAccessGrantsEnabled`. The tokens it answers (an ID token too when the scope has `openid`, as Keycloak's) cannot
 * be refreshed (see decisions/0001). `jkt`: the key of the request's DPoP proof (checked by the token endpoint), to
 * which the tokens are then bound, as Keycloak binds them.
 */
export async function passwordGrant(
  runtime: RealmRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  params: URLSearchParams,
  client: Client | undefined,
  jkt?: string,
): Promise<void> {
  if (!client || !client.enabled || client.bearerOnly) {
    return sendOAuthError(res, 401, 'invalid_client', 'Invalid client or Invalid client credentials');
  }
  if (!client.publicClient) {
    const secret = basicCredentials(req)?.[1] ?? params.get('client_secret');
    if (!client.secret || secret !== client.secret) {
      return sendOAuthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials');
    }
  }
  if (!client.directAccessGrantsEnabled) {
    return sendOAuthError(res, 400, 'unauthorized_client', 'Client not allowed for direct access grants');
  }
  const user = runtime.userByLogin(params.get('username') ?? '');
  if (!user || !passwordAccepted(runtime, user, params.get('password'))) {
    return sendOAuthError(res, 401, 'invalid_grant', 'Invalid user credentials');
  }
  if (!user.enabled) return sendOAuthError(res, 400, 'invalid_grant', 'Account disabled');
  const session = runtime.sessions.open(crypto.randomUUID(), user.id);
  if (!session) return sendOAuthError(res, 400, 'invalid_grant', 'Session not active');
  runtime.sessions.join(session.id, client.clientId, runtime.issuer);
  const requested = params.get('scope') ?? '';
  const scope = grantedScope(runtime.realm, client, requested);
  const refreshExp = runtime.sessions.expiresAt(session);
  const now = Math.floor(Date.now() / 1000);
  const accessToken = await signAccessToken(runtime, user, client, session, requested, jkt);
  // Keycloak answers an ID token when the scope asks for `openid` (TokenUtil.isOIDCRequest)
  const openid = requested.split(' ').includes('openid');
  sendJson(res, 200, {
    access_token: accessToken,
    expires_in: runtime.realm.accessTokenLifespan,
    refresh_expires_in: refreshExp - now,
    refresh_token: await signRefreshToken(runtime, {
      handle: crypto.randomUUID(),
      sid: session.id,
      sub: user.id,
      azp: client.clientId,
      scope: refreshTokenScope(runtime.realm, client, requested),
      exp: refreshExp,
      jkt: client.publicClient ? jkt : undefined,
    }),
    token_type: jkt ? 'DPoP' : 'Bearer',
    ...(openid ? { id_token: await signIdToken(runtime, user, client, session, accessToken) } : {}),
    'not-before-policy': 0,
    session_state: session.id,
    scope,
  });
}
