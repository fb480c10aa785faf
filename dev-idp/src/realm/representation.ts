/**
 * The subset of Keycloak's realm representation (the JSON that `kc.sh import` and
 * `POST /admin/realms` accept) that the dev IdP reads. Every other Keycloak field is
 * tolerated and ignored.
 */
export interface CredentialRepresentation {
  type?: string;
  value?: string;
  temporary?: boolean;
}

export interface UserRepresentation {
  id?: string;
  username?: string;
  enabled?: boolean;
  email?: string;
  emailVerified?: boolean;
  firstName?: string;
  lastName?: string;
  credentials?: CredentialRepresentation[];
  realmRoles?: string[];
  clientRoles?: Record<string, string[]>;
}

export interface ClientRepresentation {
  id?: string;
  clientId?: string;
  name?: string;
  enabled?: boolean;
  publicClient?: boolean;
  bearerOnly?: boolean;
  secret?: string;
  standardFlowEnabled?: boolean;
  implicitFlowEnabled?: boolean;
  directAccessGrantsEnabled?: boolean;
  frontchannelLogout?: boolean;
  redirectUris?: string[];
  webOrigins?: string[];
  attributes?: Record<string, string>;
  defaultClientScopes?: string[];
  optionalClientScopes?: string[];
}

export interface ProtocolMapperRepresentation {
  name?: string;
  protocol?: string;
  protocolMapper?: string;
  config?: Record<string, string>;
}

export interface ClientScopeRepresentation {
  name?: string;
  description?: string;
  protocol?: string;
  attributes?: Record<string, string>;
  protocolMappers?: ProtocolMapperRepresentation[];
}

export interface RoleRepresentation {
  id?: string;
  name?: string;
  description?: string;
}

/** One step of a flow: an authenticator, or (`authenticatorFlow`) the sub-flow named `flowAlias`. */
export interface AuthenticationExecutionRepresentation {
  authenticator?: string;
  authenticatorFlow?: boolean;
  flowAlias?: string;
  requirement?: string;
  priority?: number;
  authenticatorConfig?: string;
}

/** A flow of `authenticationFlows`, in Keycloak's export shape. */
export interface AuthenticationFlowRepresentation {
  alias?: string;
  description?: string;
  providerId?: string;
  topLevel?: boolean;
  builtIn?: boolean;
  authenticationExecutions?: AuthenticationExecutionRepresentation[];
}

/** An entry of `authenticatorConfig`: settings an execution names by `alias`. */
export interface AuthenticatorConfigRepresentation {
  alias?: string;
  config?: Record<string, string>;
}

export interface RealmRepresentation {
  id?: string;
  realm?: string;
  displayName?: string;
  enabled?: boolean;
  accessTokenLifespan?: number;
  accessTokenLifespanForImplicitFlow?: number;
  ssoSessionIdleTimeout?: number;
  ssoSessionMaxLifespan?: number;
  revokeRefreshToken?: boolean;
  roles?: {
    realm?: RoleRepresentation[];
    client?: Record<string, RoleRepresentation[]>;
  };
  clients?: ClientRepresentation[];
  users?: UserRepresentation[];
  clientScopes?: ClientScopeRepresentation[];
  defaultDefaultClientScopes?: string[];
  defaultOptionalClientScopes?: string[];
  attributes?: Record<string, string>;
  internationalizationEnabled?: boolean;
  supportedLocales?: string[];
  defaultLocale?: string;
  browserFlow?: string;
  authenticationFlows?: AuthenticationFlowRepresentation[];
  authenticatorConfig?: AuthenticatorConfigRepresentation[];
}
