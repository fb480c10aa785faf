import type { ResolvedConfig } from '../config';
import type { KeycloakInitOptions } from './keycloak';
import type { TokenSet } from '../tokens/tokenSet';

/**
 * The keycloak-js settings the platform runs with. check-sso through a silent frame so public pages
 * never redirect; PKCE S256; the login-status frame every few seconds so a session ended at the
 * provider is noticed. `redirectUri`: where keycloak-js's own full-page redirects come back to (check-sso
 * when the frames are unavailable), already without callback parameters (redirectUri.ts). `seed`: a live tab
 * of this origin handed over its access and ID tokens (memory to memory, verified against the provider's
 * keys): keycloak-js is then only readied (no check-sso, no frames, no request to the provider) and takes
 * those tokens; this tab asks the tab that holds the refresh token for renewals (decisions/0053).
 */
export function initOptions(config: ResolvedConfig, redirectUri: string, seed: TokenSet | null = null): KeycloakInitOptions {
  // keycloak-js adds `openid`; the rest (API scopes) must be granted at sign-in to be downscoped to later (decisions/0054)
  const scope = config.scopes.length > 0 ? { scope: config.scopes.join(' ') } : {};
  if (seed) {
    return {
      ...scope,
      redirectUri,
      pkceMethod: 'S256',
      checkLoginIframe: false,
      messageReceiveTimeout: config.messageReceiveTimeout,
      responseMode: 'fragment',
      enableLogging: false,
    };
  }
  return {
    ...scope,
    onLoad: 'check-sso',
    redirectUri,
    silentCheckSsoRedirectUri: config.silentCheckSsoRedirectUri,
    pkceMethod: 'S256',
    checkLoginIframe: true,
    checkLoginIframeInterval: config.checkLoginIframeInterval,
    messageReceiveTimeout: config.messageReceiveTimeout,
    responseMode: 'fragment',
    enableLogging: false,
  };
}
