import { accountRepresentation } from '../tokens/claims.js';
import { answerPreflight, applyCors } from '../http/cors.js';
import { sendHtml, sendJson } from '../http/respond.js';
import { layout } from '../pages/layout.js';
import { verifyRequestAccess } from '../tokens/tokens.js';
import { anyClientOrigin, tokenOrigins } from './bearerCors.js';
import type { RealmRequest } from './RealmRequest.js';

const ACCOUNT_ROLES = ['view-profile', 'manage-account'];

/**
 * `/realms/{realm}/account`: with `Accept: application/json` and a bearer token, the user's
 * profile as Keycloak's account REST answers it (keycloak-js `loadUserProfile()`); the token
 * needs `account` in its audience (else 401) and role view-profile or manage-account of client `account` (else 403).
 */
export async function accountEndpoint({ runtime, req, res, url }: RealmRequest): Promise<void> {
  if (req.method === 'OPTIONS') return answerPreflight(req, res, anyClientOrigin(runtime), 'GET, OPTIONS');
  if (!(req.headers.accept ?? '').includes('application/json')) {
    return sendHtml(res, 200, layout(runtime.realm, 'Account', '<p>The account console is not part of the dev identity provider.</p>'));
  }
  const { access } = await verifyRequestAccess(runtime, req, url);
  applyCors(req, res, tokenOrigins(access));
  if (!access)
    return sendJson(res, 401, { error: 'HTTP 401 Unauthorized' }, { 'WWW-Authenticate': `Bearer realm="${runtime.realm.name}"` });
  const aud = access.payload.aud;
  const audience = Array.isArray(aud) ? aud : aud ? [aud] : [];
  const resourceAccess = access.payload.resource_access as Record<string, { roles?: string[] }> | undefined;
  const roles = resourceAccess?.account?.roles ?? [];
  // Keycloak: a token not for `account` is not accepted at all (401); one without its roles is forbidden (403).
  if (!audience.includes('account')) return sendJson(res, 401, { error: 'HTTP 401 Unauthorized' });
  if (!roles.some((r) => ACCOUNT_ROLES.includes(r))) return sendJson(res, 403, { error: 'HTTP 403 Forbidden' });
  sendJson(res, 200, accountRepresentation(access.user));
}
