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
  /** `attributes["post.logout.redirect.uris"]`, split on `##`, `+` kept as written. */
  postLogoutRedirectUris: string[];
  roles: Role[];
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
  ssoSessionIdleTimeout: number;
  ssoSessionMaxLifespan: number;
  /** Keycloak's "Revoke Refresh Token" (with its default max reuse 0): each refresh token works once */
  revokeRefreshToken: boolean;
  roles: Role[];
  clients: Client[];
  users: User[];
}

/** Keycloak's defaults for a new realm (seconds). */
export const REALM_DEFAULTS = {
  accessTokenLifespan: 300,
  ssoSessionIdleTimeout: 1800,
  ssoSessionMaxLifespan: 36000,
} as const;
