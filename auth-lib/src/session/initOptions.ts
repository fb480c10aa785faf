import type { ResolvedConfig } from './config';
import type { KeycloakInitOptions } from './keycloak';

/**
 * The keycloak-js settings the platform runs with. check-sso through a silent frame so public pages
 * never redirect; PKCE S256; the login-status frame every few seconds so a session ended at the
 * provider is noticed; tokens are never passed in (they live only in this page's memory).
 */
export function initOptions(config: ResolvedConfig): KeycloakInitOptions {
  return {
    onLoad: 'check-sso',
    silentCheckSsoRedirectUri: config.silentCheckSsoRedirectUri,
    pkceMethod: 'S256',
    checkLoginIframe: true,
    checkLoginIframeInterval: config.checkLoginIframeInterval,
    messageReceiveTimeout: config.messageReceiveTimeout,
    responseMode: 'fragment',
    enableLogging: false,
  };
}
