import type { ResolvedConfig } from './config';
import type { KeycloakInitOptions } from './keycloak';
import type { TokenSet } from './tokenSet';

/**
 * The keycloak-js settings the platform runs with. check-sso through a silent frame so public pages
 * never redirect; PKCE S256; the login-status frame every few seconds so a session ended at the
 * provider is noticed. `redirectUri`: where keycloak-js's own full-page redirects come back to (check-sso
 * when the frames are unavailable), already without callback parameters (redirectUri.ts). `seed`: tokens a
 * live tab of this origin handed over (memory to memory); keycloak-js then skips check-sso but still asks
 * its login-status frame whether that session lives.
 */
export function initOptions(config: ResolvedConfig, redirectUri: string, seed: TokenSet | null = null): KeycloakInitOptions {
  const seeded: KeycloakInitOptions = seed
    ? { token: seed.token, refreshToken: seed.refreshToken, timeSkew: seed.timeSkew, ...(seed.idToken ? { idToken: seed.idToken } : {}) }
    : {};
  return {
    ...seeded,
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
