import type { IncomingMessage } from 'node:http';

import { invalidScopes } from '../realm/clientScopes.js';
import type { Client } from '../realm/model.js';

/**
 * Keycloak's downscoped refresh (a refresh-token request with `scope`, keycloak#12009): the access token is issued
 * for the client's default client scopes and the optional ones the parameter names that the refresh token was
 * granted; a name that is not a client scope of the client refuses the whole request. oidc-provider refuses a scope
 * its refresh token lacks, so the token endpoint takes the parameter out and records what to issue here, per
 * request; the access token's claims and the response's `scope` are made from it.
 */
const downscoped = new WeakMap<IncomingMessage, string>();

/** The scope values a downscoped refresh issues its access token for, or undefined when the refresh is not one. */
export function downscopedTo(req: IncomingMessage | undefined): string | undefined {
  return req ? downscoped.get(req) : undefined;
}

/**
 * Reads a refresh request's `scope`: Keycloak's error description when it names a scope the client does not have
 * (`Invalid scopes: <the parameter>`), else records the downscope on `req` and removes the parameter from `params`.
 * `granted` is the refresh token's scope. An absent or empty parameter leaves the refresh as it is.
 */
export function downscopeRefresh(req: IncomingMessage, params: URLSearchParams, client: Client, granted: string): string | undefined {
  const requested = params.get('scope');
  if (requested === null || requested.trim() === '') return undefined;
  if (invalidScopes(client, requested).length > 0) return `Invalid scopes: ${requested}`;
  const grantedNames = new Set(granted.split(' '));
  downscoped.set(
    req,
    requested
      .split(' ')
      .filter((name) => name !== '' && grantedNames.has(name))
      .join(' '),
  );
  params.delete('scope');
  return undefined;
}
