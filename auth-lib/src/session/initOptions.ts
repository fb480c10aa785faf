import type { ResolvedConfig } from './config';
import type { KeycloakInitOptions } from './keycloak';
import type { TokenSet } from './tokenSet';

/**
 * The keycloak-js settings the platform runs with. check-sso through a silent frame so public pages
 * never redirect; PKCE S256; the login-status frame every few seconds so a session ended at the
 * provider is noticed. `seed`: tokens a live tab of this origin handed over (memory to memory); keycloak-js
 * then skips check-sso but still asks its login-status frame whether that session lives.
 */
export function initOptions(config: ResolvedConfig, seed: TokenSet | null = null): KeycloakInitOptions {
  const seeded: KeycloakInitOptions = seed
    ? { token: seed.token, refreshToken: seed.refreshToken, timeSkew: seed.timeSkew, ...(seed.idToken ? { idToken: seed.idToken } : {}) }
    : {};
  return {
    ...seeded,
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
