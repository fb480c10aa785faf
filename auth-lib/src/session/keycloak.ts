/**
 * The boundary to keycloak-js. This file is the only place in the repository that names keycloak-js:
 * everything else talks to the `KeycloakLike` subset below, which is also what unit tests fake.
 */
import type Keycloak from 'keycloak-js';
import type { KeycloakInitOptions, KeycloakLoginOptions, KeycloakLogoutOptions } from 'keycloak-js';

/** The members of a keycloak-js instance the session uses (tests implement exactly these). */
export type KeycloakLike = Pick<
  Keycloak,
  | 'init'
  | 'login'
  | 'logout'
  | 'updateToken'
  | 'clearToken'
  | 'isTokenExpired'
  | 'loadUserInfo'
  | 'loadUserProfile'
  | 'authenticated'
  | 'token'
  | 'tokenParsed'
  | 'idTokenParsed'
  | 'refreshToken'
  | 'timeSkew'
  | 'sessionId'
  | 'onAuthRefreshSuccess'
  | 'onAuthRefreshError'
  | 'onAuthLogout'
>;

export type { KeycloakInitOptions, KeycloakLoginOptions, KeycloakLogoutOptions };

/** What the session needs to build a keycloak-js instance: the provider's coordinates. */
export interface KeycloakServerSettings {
  readonly url: string;
  readonly realm: string;
  readonly clientId: string;
}

/** Builds one keycloak-js instance. Injected so tests (and other runtimes) can pass a fake. */
export type KeycloakFactory = (settings: KeycloakServerSettings) => KeycloakLike | Promise<KeycloakLike>;

/**
 * The real factory. keycloak-js is ESM-only and jest runs CommonJS, so it is loaded with a dynamic
 * `import()` that only runs when a real session starts; bundlers inline it or split it into a chunk.
 */
export const loadKeycloak: KeycloakFactory = async (settings) => {
  const { default: KeycloakClass } = await import('keycloak-js');
  return new KeycloakClass({ url: settings.url, realm: settings.realm, clientId: settings.clientId });
};
