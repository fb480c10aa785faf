import type { Client, ClientScope, Realm } from './model.js';
import type { ClientRepresentation, ClientScopeRepresentation, RealmRepresentation } from './representation.js';

/**
 * Keycloak 26's built-in OpenID Connect client scopes, as it creates them in a realm whose representation has no
 * `clientScopes` (with one, it creates none of them: measured on 26.7.3, decisions/0055). Only what the dev IdP
 * applies is kept; `profile` and `email` claims are written by claims.ts whatever the scopes.
 */
const scope = (name: string, fields: Partial<ClientScope> = {}): ClientScope => ({
  name,
  includeInTokenScope: true,
  audiences: [],
  audienceResolve: false,
  realmRoles: false,
  clientRoles: false,
  ...fields,
});

export function builtinClientScopes(): ClientScope[] {
  return [
    scope('profile'),
    scope('email'),
    scope('roles', { includeInTokenScope: false, audienceResolve: true, realmRoles: true, clientRoles: true }),
    scope('web-origins', { includeInTokenScope: false }),
    scope('acr', { includeInTokenScope: false }),
    scope('basic', { includeInTokenScope: false }),
    scope('offline_access'),
    scope('address'),
    scope('phone'),
    scope('microprofile-jwt'),
    scope('organization'),
  ];
}

/** Keycloak's `defaultDefaultClientScopes` / `defaultOptionalClientScopes` of a realm with its built-in scopes (OIDC ones). */
const BUILTIN_DEFAULT = ['profile', 'email', 'roles', 'web-origins', 'acr', 'basic'];
const BUILTIN_OPTIONAL = ['offline_access', 'address', 'phone', 'microprofile-jwt', 'organization'];

/** A client scope of the realm file: its OIDC mappers of the kinds the dev IdP applies. SAML scopes give undefined. */
export function toClientScope(rep: ClientScopeRepresentation): ClientScope | undefined {
  if (rep.protocol !== undefined && rep.protocol !== 'openid-connect') return undefined;
  const mappers = (rep.protocolMappers ?? []).filter((m) => m.protocol === undefined || m.protocol === 'openid-connect');
  // Keycloak: a mapper without `access.token.claim` puts its claim in the access token (backwards compatibility).
  const inAccessToken = (config: Record<string, string> | undefined) => (config?.['access.token.claim'] ?? 'true') === 'true';
  const of = (type: string) => mappers.filter((m) => m.protocolMapper === type && inAccessToken(m.config));
  return scope(rep.name ?? '', {
    includeInTokenScope: (rep.attributes?.['include.in.token.scope'] ?? 'true') === 'true',
    audiences: of('oidc-audience-mapper')
      .map((m) => m.config?.['included.custom.audience'] || m.config?.['included.client.audience'] || '')
      .filter(Boolean),
    audienceResolve: of('oidc-audience-resolve-mapper').length > 0,
    realmRoles: of('oidc-usermodel-realm-role-mapper').length > 0,
    clientRoles: of('oidc-usermodel-client-role-mapper').length > 0,
  });
}

/**
 * The realm's client scopes and the lists a client without its own gets, as Keycloak imports them: the file's
 * scopes (and its `defaultDefaultClientScopes`, `defaultOptionalClientScopes`, else none), or the built-in ones.
 */
export function realmClientScopes(rep: RealmRepresentation): { scopes: ClientScope[]; defaults: string[]; optional: string[] } {
  if (rep.clientScopes === undefined) {
    return {
      scopes: builtinClientScopes(),
      defaults: rep.defaultDefaultClientScopes ?? BUILTIN_DEFAULT,
      optional: rep.defaultOptionalClientScopes ?? BUILTIN_OPTIONAL,
    };
  }
  const scopes = rep.clientScopes.map(toClientScope).filter((s): s is ClientScope => s !== undefined);
  return { scopes, defaults: rep.defaultDefaultClientScopes ?? [], optional: rep.defaultOptionalClientScopes ?? [] };
}

/**
 * A client's default and optional client scopes as Keycloak imports them: with either list in the representation
 * both are taken from it (an absent one is empty); with neither, the realm's. Names of scopes the realm does not
 * have are dropped, as Keycloak does on import.
 */
export function clientScopeLists(
  rep: Pick<ClientRepresentation, 'defaultClientScopes' | 'optionalClientScopes'>,
  realm: { scopes: ClientScope[]; defaults: string[]; optional: string[] },
): Pick<Client, 'defaultClientScopes' | 'optionalClientScopes'> {
  const own = rep.defaultClientScopes !== undefined || rep.optionalClientScopes !== undefined;
  const known = (names: string[]) => names.filter((n) => realm.scopes.some((s) => s.name === n));
  return {
    defaultClientScopes: known(own ? (rep.defaultClientScopes ?? []) : realm.defaults),
    optionalClientScopes: known(own ? (rep.optionalClientScopes ?? []) : realm.optional),
  };
}

/** Names in a `scope` parameter that are neither `openid` nor a client scope of the client: Keycloak's "Invalid scopes". */
export function invalidScopes(client: Client, requested: string): string[] {
  const allowed = new Set(['openid', ...client.defaultClientScopes, ...client.optionalClientScopes]);
  return requested.split(' ').filter((name) => name !== '' && !allowed.has(name));
}

/** What a token is issued with: the client scopes in effect and the `scope` claim they make. */
export interface ScopesInEffect {
  scopes: ClientScope[];
  /** the token's `scope` claim: `openid` when asked for, then each scope in effect that is included in the token scope */
  claim: string;
}

/**
 * Keycloak's client scopes of a token: every default client scope of the client, and the optional ones `requested`
 * names (its other names are not applied: a refresh that asks for a scope the sign-in did not is given a token
 * without it).
 */
export function scopesInEffect(realm: Realm, client: Client, requested: string): ScopesInEffect {
  const asked = new Set(requested.split(' ').filter(Boolean));
  const names = [...client.defaultClientScopes, ...client.optionalClientScopes.filter((n) => asked.has(n))];
  const scopes = names.map((n) => realm.clientScopes.find((s) => s.name === n)).filter((s): s is ClientScope => s !== undefined);
  const claim = [...(asked.has('openid') ? ['openid'] : []), ...scopes.filter((s) => s.includeInTokenScope).map((s) => s.name)];
  return { scopes, claim: claim.join(' ') };
}
