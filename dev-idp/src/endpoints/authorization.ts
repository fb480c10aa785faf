import type { ServerResponse } from 'node:http';

import { acrRequest, requestedLevel } from '../sessions/acr.js';
import { readParams, redirect, sendPage } from '../http/respond.js';
import { errorPage } from '../pages/errorPage.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';
import { invalidScopes } from '../realm/clientScopes.js';
import { redirectUriMatches } from '../sessions/redirect.js';
import { withParameters } from '../sessions/responseMode.js';
import { LOGIN_ACTIONS } from '../provider/routes.js';
import { interactionPage } from './login.js';
import type { LoginInteraction } from './login.js';
import type { RealmRequest } from './RealmRequest.js';

type ResponseMode = 'query' | 'fragment';
const NOT_ALLOWED = 'Client is not allowed to initiate browser login with given response_type.';

/**
 * `…/protocol/openid-connect/auth` (GET, or POST with a form): oidc-provider validates the request and runs the flow;
 * around it, Keycloak's refusals of flows a client has not enabled (checked before oidc-provider,
 * with Keycloak's wording), and the login form answered right here with 200, as Keycloak does,
 * where oidc-provider would redirect to its interaction URL.
 */
export async function authorizationEndpoint({ runtime, req, res, url, forward }: RealmRequest): Promise<void> {
  if (req.method === 'POST') {
    // Keycloak also takes the request as a form POST (OIDC Core 3.1.2.1); oidc-provider only as GET here
    // (its POST support needs SameSite=None cookies), so the form's fields become the query.
    url.search = (await readParams(req, url)).toString();
    req.method = 'GET';
  }
  const refusal = flowRefusal(runtime, url.searchParams);
  if (refusal) return redirect(res, refusal);
  const unknownAcr = unknownEssentialAcr(runtime, url.searchParams);
  if (unknownAcr !== undefined) return sendPage(res, 400, errorPage(runtime.realm, 'Invalid parameter: claims'));
  answerLoginInline(runtime, res);
  forward();
}

/**
 * Keycloak's checks of the response type against the client's flows, in its order, and of the scope against the
 * client's client scopes. They only apply
 * once the client and its redirect URI are known to be good (otherwise oidc-provider's error page).
 */
function flowRefusal(runtime: RealmRuntime, params: URLSearchParams): string | undefined {
  const client = runtime.client(params.get('client_id') ?? undefined);
  const redirectUri = params.get('redirect_uri');
  const responseType = params.get('response_type');
  if (!client || !client.enabled || client.bearerOnly || !redirectUri || !responseType) return undefined;
  if (!redirectUriMatches(redirectUri, client.redirectUris)) return undefined;
  const types = new Set(responseType.split(' ').filter(Boolean));
  const implicitOrHybrid = types.has('token') || types.has('id_token');
  const requested = params.get('response_mode');
  const mode: ResponseMode = requested === 'query' || requested === 'fragment' ? requested : implicitOrHybrid ? 'fragment' : 'query';
  const error = (description: string, error = 'unauthorized_client', as: ResponseMode = mode): string =>
    withParameters(redirectUri, as, {
      error,
      error_description: description,
      ...(params.get('state') ? { state: params.get('state') ?? '' } : {}),
      iss: runtime.issuer,
    });
  if (implicitOrHybrid && requested === 'query') {
    return error("Response_mode 'query' not allowed for implicit or hybrid flow", 'invalid_request', 'query');
  }
  if ((types.has('code') || types.has('none')) && !client.standardFlowEnabled) {
    return error(`${NOT_ALLOWED} Standard flow is disabled for the client.`);
  }
  // No client has the implicit flow here (realm/validate.ts refuses it): Keycloak's answer for one that has it off.
  if (implicitOrHybrid) return error(`${NOT_ALLOWED} Implicit flow is disabled for the client.`);
  // A scope that is not a client scope of the client refuses the sign-in (the whole parameter named, as Keycloak does).
  const scope = params.get('scope');
  if (scope && invalidScopes(client, scope).length > 0) return error(`Invalid scopes: ${scope}`, 'invalid_scope');
  return undefined;
}

/**
 * An essential acr the realm cannot map to a level (not in its acr.loa.map, not a number): Keycloak refuses
 * the request with an error page, since it cannot meet a requirement it does not know.
 */
function unknownEssentialAcr(runtime: RealmRuntime, params: URLSearchParams): string | undefined {
  const map = runtime.loaMap(runtime.client(params.get('client_id') ?? undefined));
  const requested = requestedLevel(acrRequest(params.get('claims'), params.get('acr_values')), map);
  return 'invalid' in requested ? requested.invalid : undefined;
}

/**
 * When oidc-provider answers with a redirect to the login form (an interaction whose prompt is
 * `login`), the form is sent instead, with 200, so the browser stays on the authorization URL.
 * Koa sends its headers and body with one `res.end`, so nothing has left yet.
 */
function answerLoginInline(runtime: RealmRuntime, res: ServerResponse): void {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    const location = res.statusCode === 303 ? String(res.getHeader('location') ?? '') : '';
    const target = location ? new URL(location, runtime.issuer) : undefined;
    const interaction =
      target?.pathname === `${runtime.path}${LOGIN_ACTIONS}`
        ? runtime.store.get('Interaction', target.searchParams.get('session_code') ?? '')
        : undefined;
    const prompt = interaction?.prompt as { name?: string } | undefined;
    if (!target || prompt?.name !== 'login') return end(chunk);
    res.removeHeader('location');
    res.end = end as ServerResponse['end'];
    sendPage(res, 200, interactionPage(runtime, interaction as unknown as LoginInteraction, `${target.pathname}${target.search}`));
    return res;
  }) as ServerResponse['end'];
}
