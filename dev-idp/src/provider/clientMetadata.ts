import type { AdapterPayload } from 'oidc-provider';

import type { Client } from '../realm/model.js';

/**
 * How a Keycloak client looks to oidc-provider. Bearer-only and disabled clients are not
 * registered (oidc-provider answers invalid_client, as Keycloak does). A client whose flows are
 * all off still exists: its requests are refused with Keycloak's errors before oidc-provider
 * sees them (endpoints/authorization.ts). Redirect URIs are only those that parse as URLs;
 * matching itself uses Keycloak's rule (see redirect.ts).
 */
export function toClientMetadata(client: Client): AdapterPayload | undefined {
  if (!client.enabled || client.bearerOnly) return undefined;
  const redirectUris = client.redirectUris.filter(isAbsoluteUrl);
  if (redirectUris.length === 0) return undefined;
  const responseTypes = client.standardFlowEnabled ? ['code'] : [];
  const grantTypes = client.standardFlowEnabled ? ['authorization_code', 'refresh_token'] : [];
  return {
    client_id: client.clientId,
    ...(client.publicClient
      ? { token_endpoint_auth_method: 'none' }
      : { token_endpoint_auth_method: 'client_secret_basic', client_secret: client.secret ?? '' }),
    redirect_uris: redirectUris,
    grant_types: grantTypes,
    response_types: responseTypes,
    require_auth_time: true,
    // oidc-provider refuses a token request without a proof too; token.ts answers it first, in Keycloak's words.
    dpop_bound_access_tokens: client.dpopBoundAccessTokens,
  };
}

function isAbsoluteUrl(uri: string): boolean {
  try {
    const url = new URL(uri.replace(/\*$/, ''));
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.hash;
  } catch {
    return false;
  }
}
