import { userinfoClaims } from '../tokens/claims.js';
import { answerPreflight, applyCors } from '../http/cors.js';
import { sendJson } from '../http/respond.js';
import { tokenChallenge, verifyRequestAccess } from '../tokens/tokens.js';
import { anyClientOrigin, tokenOrigins } from './bearerCors.js';
import type { RealmRequest } from './RealmRequest.js';

/** `…/userinfo` (GET or POST with a bearer token, or a DPoP-bound one and its proof); 401 with `WWW-Authenticate` for a bad or expired token. */
export async function userinfoEndpoint({ runtime, req, res, url }: RealmRequest): Promise<void> {
  if (req.method === 'OPTIONS') return answerPreflight(req, res, anyClientOrigin(runtime), 'GET, POST, OPTIONS');
  const { access, scheme } = await verifyRequestAccess(runtime, req, url);
  // Keycloak answers a refusal with CORS too (before it knows the token's client: any origin; then the
  // client's), so a page reads the 401 of an ended session instead of a network error.
  applyCors(req, res, access ? tokenOrigins(access) : anyClientOrigin(runtime));
  if (!access) {
    return sendJson(
      res,
      401,
      { error: 'invalid_token', error_description: 'Token verification failed' },
      { 'WWW-Authenticate': tokenChallenge(runtime, scheme, 'Token verification failed') },
    );
  }
  // A token issued without `openid` (a refresh downscoped to an API's scope) is no ID token's companion: Keycloak
  // refuses it with 403 and an empty body.
  const scope = typeof access.payload.scope === 'string' ? access.payload.scope.split(' ') : [];
  if (!scope.includes('openid')) {
    const challenge = `Bearer realm="${runtime.realm.name}", error="insufficient_scope", error_description="Missing openid scope"`;
    res.writeHead(403, { 'Content-Type': 'text/plain;charset=utf-8', 'WWW-Authenticate': challenge }).end();
    return;
  }
  sendJson(res, 200, userinfoClaims(access.user));
}
