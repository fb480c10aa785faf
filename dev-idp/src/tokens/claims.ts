import { scopesInEffect } from '../realm/clientScopes.js';
import type { Client, Realm, User } from '../realm/model.js';
import { effectiveRoles } from '../realm/roles.js';
import { webOrigins } from '../sessions/redirect.js';

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

/**
 * The `scope` claim of a token (and the `scope` of the token response): `openid` when asked for, and each client scope
 * in effect (the client's default ones, the optional ones `requested` names) that is included in the token scope.
 */
export function grantedScope(realm: Realm, client: Client, requested: string | undefined): string {
  return scopesInEffect(realm, client, requested ?? 'openid').claim;
}

/** The `scope` of Keycloak's refresh token: `openid` when asked for and every client scope in effect, shown or not. */
export function refreshTokenScope(realm: Realm, client: Client, requested: string | undefined): string {
  const { scopes } = scopesInEffect(realm, client, requested ?? 'openid');
  const asked = (requested ?? 'openid').split(' ');
  return [...(asked.includes('openid') ? ['openid'] : []), ...scopes.map((s) => s.name)].join(' ');
}

/** What identifies the session and client a token is issued in. */
export interface TokenContext {
  realm: Realm;
  user: User;
  client: Client;
  sid: string;
  /** the scope values the token is issued for (the request's `scope`, or a `scope` claim: the same client scopes) */
  scope: string;
  /** the `acr` of the client's session (see acr.ts); "1" where none was recorded (the password grant) */
  acr?: string;
}

/**
 * Keycloak's access-token claims besides the registered ones (iss, sub, exp, iat, jti):
 * typ "Bearer", azp, sid, `allowed-origins`, the profile claims, and what the client scopes in effect add
 * (the built-in `roles` scope: roles in `realm_access` / `resource_access` and, through its audience resolve, an
 * audience of the other clients whose roles the token carries; an audience mapper: its audience).
 */
export function accessTokenClaims({ realm, user, client, sid, scope, acr = '1' }: TokenContext): Claims {
  const inEffect = scopesInEffect(realm, client, scope);
  const has = (kind: 'realmRoles' | 'clientRoles' | 'audienceResolve') => inEffect.scopes.some((s) => s[kind]);
  const roles = effectiveRoles(realm, user);
  const resourceAccess = Object.fromEntries(
    Object.entries(roles.client)
      .filter(([, r]) => r.length > 0)
      .map(([clientId, r]) => [clientId, { roles: r }]),
  );
  const audience = [
    ...new Set([
      ...inEffect.scopes.flatMap((s) => s.audiences),
      ...(has('audienceResolve') ? Object.keys(resourceAccess).filter((id) => id !== client.clientId) : []),
    ]),
  ];
  return withoutUndefined({
    aud: audience.length === 0 ? undefined : audience.length === 1 ? audience[0] : audience,
    typ: 'Bearer',
    azp: client.clientId,
    sid,
    acr,
    'allowed-origins': webOrigins(client),
    realm_access: has('realmRoles') ? { roles: roles.realm } : undefined,
    resource_access: has('clientRoles') ? resourceAccess : undefined,
    scope: inEffect.claim,
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
