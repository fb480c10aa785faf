import type { LoaMap } from '../sessions/acr.js';

/** The dev IdP's in-memory view of a realm, with Keycloak's defaults applied. */
export interface Role {
  id: string;
  name: string;
  description?: string;
  /** Roles this one grants too (Keycloak's composite roles). */
  composites?: { realm: string[]; client: Record<string, string[]> };
}

export interface Client {
  id: string;
  clientId: string;
  name?: string;
  enabled: boolean;
  publicClient: boolean;
  bearerOnly: boolean;
  secret?: string;
  standardFlowEnabled: boolean;
  directAccessGrantsEnabled: boolean;
  redirectUris: string[];
  webOrigins: string[];
  /** `attributes["pkce.code.challenge.method"]`; undefined = PKCE optional. */
  pkceMethod?: string;
  /**
   * `attributes["dpop.bound.access.tokens"]` ("true", any case): every token request needs a DPoP proof (RFC 9449),
   * so each token is bound to the client's key; without one Keycloak answers `invalid_request` "DPoP proof is missing".
   */
  dpopBoundAccessTokens: boolean;
  /**
   * `attributes["post.logout.redirect.uris"]`, split on `##`, `+` kept as written; absent = `+`
   * (the valid redirect URIs, Keycloak's default); `-` = none.
   */
  postLogoutRedirectUris: string[];
  /**
   * `attributes["backchannel.logout.url"]`: where a logout token is posted when one of its sessions ends
   * (decisions/0118); undefined (absent or empty) = none is sent.
   */
  backchannelLogoutUrl?: string;
  /**
   * `attributes["backchannel.logout.session.required"]` ("true", any case): the logout token names the session (`sid`).
   * Undefined: the attribute is absent, read as false (as Keycloak reads it) and left out of the admin API's
   * representation, as Keycloak keeps only the attributes it was given. A client imported from a realm file has what
   * the file says; one the admin API creates naming its `protocol` and without a back-channel URL gets true (Keycloak's
   * OIDCLoginProtocolFactory.setupClientDefaults, measured by the differential probe).
   */
  backchannelLogoutSessionRequired?: boolean;
  /**
   * `attributes["backchannel.logout.revoke.offline.tokens"]` ("true", any case): the token's events say
   * `revoke_offline_access`. Undefined: absent (false), as for the one above.
   */
  backchannelLogoutRevokeOfflineTokens?: boolean;
  /**
   * `frontchannelLogout` (absent = false, as Keycloak's import sets an OIDC client): a browser logout logs this client
   * out through the browser, so it gets no back-channel logout token then (the dev IdP has no front-channel logout).
   */
  frontchannelLogout: boolean;
  roles: Role[];
  /** `attributes["acr.loa.map"]`: level names of this client (overrides the realm's); empty = the realm's. */
  acrLoaMap: LoaMap;
  /** names of the client scopes every token of this client gets (Keycloak's default client scopes) */
  defaultClientScopes: string[];
  /** names of the client scopes a `scope` parameter may add (Keycloak's optional client scopes) */
  optionalClientScopes: string[];
}

/**
 * A client scope, reduced to what the dev IdP does with it (its protocol mappers of these types; the profile and
 * email claims stay as claims.ts writes them).
 */
export interface ClientScope {
  name: string;
  /** `attributes["include.in.token.scope"]` (absent = true): whether its name shows in the token's `scope` */
  includeInTokenScope: boolean;
  /** audiences of its `oidc-audience-mapper`s that put them in the access token */
  audiences: string[];
  /** it has an `oidc-audience-resolve-mapper`: the audience of every client whose roles the token carries */
  audienceResolve: boolean;
  /** it has an `oidc-usermodel-realm-role-mapper` (`realm_access`) */
  realmRoles: boolean;
  /** it has an `oidc-usermodel-client-role-mapper` (`resource_access`) */
  clientRoles: boolean;
}

export interface User {
  id: string;
  username: string;
  enabled: boolean;
  email?: string;
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
  password?: string;
  realmRoles: string[];
  clientRoles: Record<string, string[]>;
  createdTimestamp: number;
}

export interface Realm {
  id: string;
  name: string;
  displayName?: string;
  enabled: boolean;
  accessTokenLifespan: number;
  accessTokenLifespanForImplicitFlow: number;
  ssoSessionIdleTimeout: number;
  ssoSessionMaxLifespan: number;
  /** Keycloak's "Revoke Refresh Token" (with its default max reuse 0): each refresh token works once */
  revokeRefreshToken: boolean;
  /** `attributes["acr.loa.map"]`: Keycloak's level names for step-up, e.g. {"silver":1,"gold":2}; empty = no levels. */
  acrLoaMap: LoaMap;
  /** `internationalizationEnabled`, `supportedLocales`, `defaultLocale`: which `ui_locales` the login page honours. */
  locales: { enabled: boolean; supported: string[]; default: string };
  roles: Role[];
  clients: Client[];
  users: User[];
  /** the realm's client scopes: those of the realm file, or Keycloak's built-in ones when it names none */
  clientScopes: ClientScope[];
  /** the default and optional client scopes a client gets when its representation names none */
  defaultDefaultClientScopes: string[];
  defaultOptionalClientScopes: string[];
}

/** Keycloak's defaults for a new realm (seconds). */
export const REALM_DEFAULTS = {
  accessTokenLifespan: 300,
  accessTokenLifespanForImplicitFlow: 900,
  ssoSessionIdleTimeout: 1800,
  ssoSessionMaxLifespan: 36000,
} as const;
