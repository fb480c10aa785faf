import { answerPreflight, applyCors, suppressForeignCors } from '../http/cors.js';
import { readBody, replayBody } from '../http/respond.js';
import { originAllowed } from '../sessions/redirect.js';
import { basicClientId } from './passwordGrant.js';
import type { RealmRequest } from './RealmRequest.js';

/**
 * `…/protocol/openid-connect/revoke`: oidc-provider revokes; CORS is ours, as on the token endpoint:
 * only the requesting client's web origins, with credentials (oidc-provider would allow any origin).
 */
export async function revokeEndpoint({ runtime, req, res, forward }: RealmRequest): Promise<void> {
  if (req.method === 'OPTIONS') {
    answerPreflight(req, res, (o) => runtime.realm.clients.some((c) => originAllowed(c, o)), 'POST, OPTIONS');
    return;
  }
  const body = await readBody(req);
  const params = new URLSearchParams(body.toString('utf8'));
  const client = runtime.client(params.get('client_id') ?? basicClientId(req));
  applyCors(req, res, (origin) => client !== undefined && originAllowed(client, origin));
  suppressForeignCors(res);
  replayBody(req, body);
  forward();
}
