import type { IncomingMessage } from 'node:http';

import { decodeJwt } from 'jose';

import { grantedScope, refreshTokenScope } from '../tokens/claims.js';
import { downscopedTo, downscopeRefresh } from '../tokens/downscope.js';
import { answerPreflight, applyCors, suppressForeignCors } from '../http/cors.js';
import { interceptJson } from '../http/interceptJson.js';
import type { JsonResponse } from '../http/interceptJson.js';
import { readBody, replayBody, sendJson, sendOAuthError } from '../http/respond.js';
import { keycloakGrantDescription } from '../provider/grantErrors.js';
import type { Client } from '../realm/model.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';
import { originAllowed } from '../sessions/redirect.js';
import { DPOP_KEY_MISMATCH, DPOP_PROOF_MISSING, checkDpopProof, dpopHeader } from '../tokens/dpop.js';
import { refreshTokenIssued, refreshTokenReuseError } from '../tokens/refreshTokenReuse.js';
import { signRefreshToken, verifyRefreshToken } from '../tokens/tokens.js';
import { basicClientId, passwordGrant } from './passwordGrant.js';
import type { RealmRequest } from './RealmRequest.js';

/**
 * The token endpoint. oidc-provider does the authorization_code and refresh_token grants;
 * around it we add Keycloak's CORS, unwrap our JWT refresh tokens into oidc-provider's opaque
 * ones, refuse grants of ended sessions ("Session not active") and reshape the response.
 * DPoP (RFC 9449) as Keycloak 26: a proof, when sent, is checked first (`invalid_request` with Keycloak's reason); a
 * client with `dpop.bound.access.tokens` must send one; a public client's refresh token is bound to the proof's key
 * (`cnf.jkt`) and then works only with a proof of that key (`invalid_grant`).
 */
export async function tokenEndpoint({ runtime, req, res, url, forward }: RealmRequest): Promise<void> {
  if (req.method === 'OPTIONS') {
    answerPreflight(req, res, (o) => runtime.realm.clients.some((c) => originAllowed(c, o)), 'POST, OPTIONS');
    return;
  }
  const params = new URLSearchParams((await readBody(req)).toString('utf8'));
  const client = runtime.client(params.get('client_id') ?? basicClientId(req));
  applyCors(req, res, (origin) => client !== undefined && originAllowed(client, origin));
  suppressForeignCors(res);
  if (!client || !client.enabled) return sendOAuthError(res, 401, 'invalid_client', 'Invalid client or Invalid client credentials');
  // A browser call from an origin the client does not allow is refused before the grant (the code stays unused).
  const origin = req.headers.origin;
  if (origin && !originAllowed(client, origin)) return sendJson(res, 403, { error: 'Invalid origin' });
  // oidc-provider checks the proof again (and binds the access token to its key); Keycloak's checks and words go first.
  const proof = dpopHeader(req) === undefined ? undefined : await checkDpopProof(req, url, runtime.dpopProofs);
  if (proof && 'error' in proof) return sendOAuthError(res, 400, 'invalid_request', proof.error);
  if (!proof && client.dpopBoundAccessTokens) return sendOAuthError(res, 400, 'invalid_request', DPOP_PROOF_MISSING);

  const grantType = params.get('grant_type');
  /** the scope of the refresh token a refresh presents: Keycloak's new refresh token keeps it, also when downscoped */
  let presented: string | undefined;
  if (grantType === 'password') {
    await passwordGrant(runtime, req, res, params, client, proof?.jkt);
    return;
  }
  if (grantType === 'refresh_token') {
    const refresh = await verifyRefreshToken(runtime, params.get('refresh_token') ?? '');
    if (!refresh) return sendOAuthError(res, 400, 'invalid_grant', 'Invalid refresh token');
    if (client && refresh.azp !== client.clientId) {
      return sendOAuthError(res, 400, 'invalid_grant', "Invalid refresh token. Token client and authorized client don't match");
    }
    // A bound refresh token (its own `cnf.jkt`, whatever the opaque one under it is bound to) needs a proof of its key.
    if (refresh.jkt && !proof) return sendOAuthError(res, 400, 'invalid_grant', DPOP_PROOF_MISSING);
    if (refresh.jkt && proof && proof.jkt !== refresh.jkt) return sendOAuthError(res, 400, 'invalid_grant', DPOP_KEY_MISMATCH);
    if (!runtime.sessions.active(refresh.sid)) return sendOAuthError(res, 400, 'invalid_grant', 'Session not active');
    if (refresh.exp <= Math.floor(Date.now() / 1000)) return sendOAuthError(res, 400, 'invalid_grant', 'Token is not active');
    const invalidScope = downscopeRefresh(req, params, client, refresh.scope);
    if (invalidScope) return sendOAuthError(res, 400, 'invalid_scope', invalidScope);
    const reuse = refreshTokenReuseError(runtime, params.get('refresh_token') ?? '', refresh);
    if (reuse) return sendOAuthError(res, 400, 'invalid_grant', reuse);
    params.set('refresh_token', refresh.handle);
    presented = refresh.scope;
  }
  replayBody(req, Buffer.from(params.toString()));
  interceptJson(res, async (response) => {
    // Keycloak removes a code at its first use, even a failed one (a wrong PKCE verifier): no second guess.
    if (grantType === 'authorization_code' && response.status !== 200) runtime.store.delete('AuthorizationCode', params.get('code') ?? '');
    if (response.status === 400) return keycloakTokenError(req, response);
    return keycloakTokenResponse(runtime, client, response, { presented, downscoped: downscopedTo(req) });
  });
  forward();
}

/** oidc-provider's refusals with Keycloak's descriptions, where the dev IdP knows them. */
function keycloakTokenError(req: IncomingMessage, response: JsonResponse): JsonResponse {
  const { body } = response;
  if (body.error === 'unsupported_grant_type') return { ...response, body: { ...body, error_description: 'Unsupported grant_type' } };
  const description = body.error === 'invalid_grant' ? keycloakGrantDescription(req) : undefined;
  return description ? { ...response, body: { ...body, error_description: description } } : response;
}

async function keycloakTokenResponse(
  runtime: RealmRuntime,
  client: Client,
  response: JsonResponse,
  { presented, downscoped }: { presented?: string; downscoped?: string },
): Promise<JsonResponse> {
  const refreshing = presented !== undefined;
  const { status, body } = response;
  if (status !== 200 || typeof body.access_token !== 'string') return response;
  const access = decodeJwt(body.access_token);
  const sid = typeof access.sid === 'string' ? access.sid : undefined;
  const session = refreshing ? runtime.sessions.touch(sid ?? '') : runtime.sessions.active(sid);
  if (!session || !access.sub) {
    return { status: 400, body: { error: 'invalid_grant', error_description: 'Session not active' } };
  }
  const now = Math.floor(Date.now() / 1000);
  const refreshExp = runtime.sessions.expiresAt(session);
  const issuedFor = downscoped ?? (typeof body.scope === 'string' ? body.scope : undefined);
  const scope = grantedScope(runtime.realm, client, issuedFor);
  if (typeof body.refresh_token === 'string') refreshTokenIssued(runtime, session.id, String(access.azp));
  const refreshToken =
    typeof body.refresh_token === 'string'
      ? await signRefreshToken(runtime, {
          handle: body.refresh_token,
          sid: session.id,
          sub: access.sub,
          azp: String(access.azp),
          scope: presented ?? refreshTokenScope(runtime.realm, client, issuedFor),
          exp: refreshExp,
          // RFC 9449 §5: a public client's refresh token is bound to the key of the request's proof, as the access token
          jkt: client.publicClient ? boundKey(access) : undefined,
        })
      : undefined;
  return {
    status,
    body: {
      access_token: body.access_token,
      expires_in: body.expires_in,
      refresh_expires_in: refreshToken ? refreshExp - now : undefined,
      refresh_token: refreshToken,
      // `DPoP` when oidc-provider bound the token to the proof's key (RFC 9449), as Keycloak answers.
      token_type: body.token_type === 'DPoP' ? 'DPoP' : 'Bearer',
      id_token: body.id_token,
      'not-before-policy': 0,
      session_state: session.id,
      scope,
    },
  };
}

/** The `cnf.jkt` of a DPoP-bound access token. */
function boundKey(access: Record<string, unknown>): string | undefined {
  const jkt = (access.cnf as { jkt?: unknown } | undefined)?.jkt;
  return typeof jkt === 'string' ? jkt : undefined;
}
