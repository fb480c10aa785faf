import { LOGIN_ACTIONS, OPENID_CONNECT } from '../provider/routes.js';
import { accountEndpoint } from './account.js';
import { discoveryEndpoint, realmInfoEndpoint } from './discovery.js';
import { authorizationEndpoint } from './authorization.js';
import { loginEndpoint } from './login.js';
import {
  loginStatusCheckEndpoint,
  loginStatusFrameEndpoint,
  loginStatusInitEndpoint,
  thirdPartyCookiesStep1Endpoint,
  thirdPartyCookiesStep2Endpoint,
} from './loginStatus.js';
import { logoutEndpoint } from './logout.js';
import type { RealmHandler } from './RealmRequest.js';
import { revokeEndpoint } from './revoke.js';
import { tokenEndpoint } from './token.js';
import { userinfoEndpoint } from './userinfo.js';

export interface RealmRoute {
  methods: string[];
  /** Matched against the path below `/realms/{realm}`. */
  pattern: RegExp;
  handler: RealmHandler;
}

const oidc = (path: string): RegExp => new RegExp(`^${OPENID_CONNECT}${path.replace(/[.]/g, '\\.')}$`);

/**
 * The Keycloak endpoints the dev IdP answers itself (or wraps). Every other path under
 * `/realms/{realm}` goes to oidc-provider (authorization, resume, certs, revoke, introspect).
 */
export const REALM_ROUTES: RealmRoute[] = [
  { methods: ['GET'], pattern: /^\/?$/, handler: realmInfoEndpoint },
  { methods: ['GET'], pattern: /^\/\.well-known\/openid-configuration$/, handler: discoveryEndpoint },
  { methods: ['POST', 'OPTIONS'], pattern: oidc('/token'), handler: tokenEndpoint },
  { methods: ['GET', 'POST', 'OPTIONS'], pattern: oidc('/userinfo'), handler: userinfoEndpoint },
  { methods: ['POST', 'OPTIONS'], pattern: oidc('/revoke'), handler: revokeEndpoint },
  { methods: ['GET', 'POST'], pattern: oidc('/logout'), handler: logoutEndpoint },
  { methods: ['GET'], pattern: oidc('/login-status-iframe.html'), handler: loginStatusFrameEndpoint },
  { methods: ['GET'], pattern: oidc('/login-status-iframe.html/init'), handler: loginStatusInitEndpoint },
  { methods: ['GET'], pattern: oidc('/login-status-iframe.html/status'), handler: loginStatusCheckEndpoint },
  { methods: ['GET'], pattern: oidc('/3p-cookies/step1.html'), handler: thirdPartyCookiesStep1Endpoint },
  { methods: ['GET'], pattern: oidc('/3p-cookies/step2.html'), handler: thirdPartyCookiesStep2Endpoint },
  { methods: ['GET', 'OPTIONS'], pattern: /^\/account\/?$/, handler: accountEndpoint },
  { methods: ['GET', 'POST'], pattern: oidc('/auth'), handler: authorizationEndpoint },
  { methods: ['GET', 'POST'], pattern: new RegExp(`^${LOGIN_ACTIONS}$`), handler: loginEndpoint },
];
