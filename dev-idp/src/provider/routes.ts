/** oidc-provider's routes at Keycloak's paths (relative to `/realms/{realm}`). */
export const OPENID_CONNECT = '/protocol/openid-connect';

export const KEYCLOAK_ROUTES = {
  authorization: `${OPENID_CONNECT}/auth`,
  token: `${OPENID_CONNECT}/token`,
  jwks: `${OPENID_CONNECT}/certs`,
  userinfo: `${OPENID_CONNECT}/userinfo`,
  end_session: `${OPENID_CONNECT}/logout`,
  revocation: `${OPENID_CONNECT}/revoke`,
  introspection: `${OPENID_CONNECT}/token/introspect`,
  pushed_authorization_request: `${OPENID_CONNECT}/ext/par/request`,
  device_authorization: `${OPENID_CONNECT}/auth/device`,
  backchannel_authentication: `${OPENID_CONNECT}/ext/ciba/auth`,
  code_verification: `${OPENID_CONNECT}/device`,
  registration: '/clients-registrations/openid-connect',
};

/** Where the login form posts, below `/realms/{realm}` (Keycloak's path). */
export const LOGIN_ACTIONS = '/login-actions/authenticate';
