import type { Client, Realm, Role, User } from '../realm/model.js';

/** The JSON Keycloak's admin API answers for each object (the fields the dev IdP knows). */
export function userOut(user: User): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    enabled: user.enabled,
    email: user.email,
    emailVerified: user.emailVerified,
    firstName: user.firstName,
    lastName: user.lastName,
    createdTimestamp: user.createdTimestamp,
    totp: false,
    requiredActions: [],
    notBefore: 0,
    access: { manage: true, view: true },
  };
}

export function clientOut(client: Client): Record<string, unknown> {
  const attributes: Record<string, string> = {};
  if (client.pkceMethod) attributes['pkce.code.challenge.method'] = client.pkceMethod;
  if (client.dpopBoundAccessTokens) attributes['dpop.bound.access.tokens'] = 'true';
  if (client.postLogoutRedirectUris.join() !== '+') attributes['post.logout.redirect.uris'] = client.postLogoutRedirectUris.join('##');
  if (client.backchannelLogoutUrl) attributes['backchannel.logout.url'] = client.backchannelLogoutUrl;
  // as Keycloak, only when the client has them (given, or set by the admin API's defaults)
  if (client.backchannelLogoutSessionRequired !== undefined)
    attributes['backchannel.logout.session.required'] = String(client.backchannelLogoutSessionRequired);
  if (client.backchannelLogoutRevokeOfflineTokens !== undefined)
    attributes['backchannel.logout.revoke.offline.tokens'] = String(client.backchannelLogoutRevokeOfflineTokens);
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    enabled: client.enabled,
    publicClient: client.publicClient,
    bearerOnly: client.bearerOnly,
    standardFlowEnabled: client.standardFlowEnabled,
    implicitFlowEnabled: false,
    directAccessGrantsEnabled: client.directAccessGrantsEnabled,
    frontchannelLogout: client.frontchannelLogout,
    redirectUris: client.redirectUris,
    webOrigins: client.webOrigins,
    protocol: 'openid-connect',
    attributes,
    defaultClientScopes: client.defaultClientScopes,
    optionalClientScopes: client.optionalClientScopes,
    ...(client.publicClient || client.bearerOnly ? {} : { secret: client.secret }),
  };
}

export function roleOut(role: Role, containerId: string, clientRole: boolean): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    composite: role.composites !== undefined,
    clientRole,
    containerId,
  };
}

export function realmOut(realm: Realm): Record<string, unknown> {
  return {
    id: realm.id,
    realm: realm.name,
    displayName: realm.displayName,
    enabled: realm.enabled,
    accessTokenLifespan: realm.accessTokenLifespan,
    accessTokenLifespanForImplicitFlow: realm.accessTokenLifespanForImplicitFlow,
    ssoSessionIdleTimeout: realm.ssoSessionIdleTimeout,
    ssoSessionMaxLifespan: realm.ssoSessionMaxLifespan,
    revokeRefreshToken: realm.revokeRefreshToken,
  };
}
