import type { Client, Realm, User } from './realm/model.js';
import { effectiveRoles } from './realm/roles.js';
import { webOrigins } from './redirect.js';

/** Keycloak's default client scopes that show up in a token's `scope` claim. */
const DEFAULT_SCOPES = ['profile', 'email'];

export type Claims = Record<string, unknown>;

/** The profile and email claims Keycloak puts in every token and in userinfo (absent values omitted). */
export function profileClaims(user: User): Claims {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return withoutUndefined({
    email_verified: user.emailVerified,
    name: name || undefined,
    preferred_username: user.username,
    given_name: user.firstName,
    family_name: user.lastName,
    email: user.email,
  });
}

/** The `scope` claim: what the client asked for plus Keycloak's default client scopes. */
export function grantedScope(requested: string | undefined): string {
  const scopes = new Set((requested ?? 'openid').split(' ').filter(Boolean));
  DEFAULT_SCOPES.forEach((s) => scopes.add(s));
  return [...scopes].join(' ');
}

/** What identifies the session and client a token is issued in. */
export interface TokenContext {
  realm: Realm;
  user: User;
  client: Client;
  sid: string;
  scope: string;
  /** the `acr` of the client's session (see acr.ts); "1" where none was recorded (the password grant) */
  acr?: string;
}

/**
 * Keycloak's access-token claims besides the registered ones (iss, sub, exp, iat, jti):
 * typ "Bearer", azp, sid, roles in `realm_access` / `resource_access`, `allowed-origins`,
 * an audience of the other clients whose roles the token carries, and the profile claims.
 */
export function accessTokenClaims({ realm, user, client, sid, scope, acr = '1' }: TokenContext): Claims {
  const roles = effectiveRoles(realm, user);
  const resourceAccess = Object.fromEntries(
    Object.entries(roles.client)
      .filter(([, r]) => r.length > 0)
      .map(([clientId, r]) => [clientId, { roles: r }]),
  );
  const audience = Object.keys(resourceAccess).filter((id) => id !== client.clientId);
  return withoutUndefined({
    aud: audience.length === 0 ? undefined : audience.length === 1 ? audience[0] : audience,
    typ: 'Bearer',
    azp: client.clientId,
    sid,
    acr,
    'allowed-origins': webOrigins(client),
    realm_access: { roles: roles.realm },
    resource_access: resourceAccess,
    scope,
    ...profileClaims(user),
  });
}

/** Claims Keycloak adds to the ID token (oidc-provider adds nonce, sid, auth_time, at_hash). */
export function idTokenClaims(user: User, acr = '1'): Claims {
  return { typ: 'ID', acr, ...profileClaims(user) };
}

/** The userinfo response. */
export function userinfoClaims(user: User): Claims {
  return { sub: user.id, ...profileClaims(user) };
}

/** `GET /realms/{realm}/account` with `Accept: application/json`, as Keycloak's account REST answers. */
export function accountRepresentation(user: User): Claims {
  return withoutUndefined({
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    emailVerified: user.emailVerified,
    // Keycloak leaves `attributes` out when the user has none (the dev IdP keeps no custom attributes).
    userProfileMetadata: {
      attributes: [
        { name: 'username', displayName: '${username}', required: true, readOnly: true, multivalued: false },
        { name: 'email', displayName: '${email}', required: true, readOnly: false, multivalued: false },
        { name: 'firstName', displayName: '${firstName}', required: true, readOnly: false, multivalued: false },
        { name: 'lastName', displayName: '${lastName}', required: true, readOnly: false, multivalued: false },
      ],
      groups: [],
    },
  });
}

function withoutUndefined(claims: Claims): Claims {
  return Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
}
