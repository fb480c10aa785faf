/**
 * The boundary to keycloak-js. This file is the only place in the repository that names keycloak-js:
 * everything else talks to the `KeycloakLike` subset below, which is also what unit tests fake.
 */
import type Keycloak from 'keycloak-js';
import type { KeycloakConfig, KeycloakInitOptions, KeycloakLoginOptions, KeycloakLogoutOptions } from 'keycloak-js';
import { importOnce } from '../util/importOnce';

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
  | 'refreshTokenParsed'
  | 'idToken'
  | 'subject'
  | 'realmAccess'
  | 'resourceAccess'
  | 'timeSkew'
  | 'sessionId'
  | 'onAuthRefreshSuccess'
  | 'onAuthRefreshError'
  | 'onAuthLogout'
>;

export type { KeycloakInitOptions, KeycloakLoginOptions, KeycloakLogoutOptions };

/**
 * How keycloak-js rejects when its login-status frame answers `error`. At `init()` that is the frame's first
 * check, where Keycloak's frame asks `…/login-status-iframe.html/init?client_id=…&origin=…` and answers `error`
 * on a 403: the client does not list the page's origin among its web origins (decisions/0051).
 */
export const FRAME_ERROR_MESSAGE = 'Error while checking login iframe';

/** What the session needs to build a keycloak-js instance: the provider's coordinates. */
export interface KeycloakServerSettings {
  readonly url: string;
  readonly realm: string;
  readonly clientId: string;
}

/** Builds one keycloak-js instance. Injected so tests (and other runtimes) can pass a fake. */
export type KeycloakFactory = (settings: KeycloakServerSettings) => KeycloakLike | Promise<KeycloakLike>;

/**
 * keycloak-js's module, requested once per page (by preloadIdentityClient or by the first session).
 * `webpackPreload`: a webpack build fetches its chunk together with the chunk that carries this module,
 * not one round trip after it.
 */
const importKeycloak = importOnce(() => import(/* webpackPreload: true */ 'keycloak-js'));

/**
 * Starts downloading keycloak-js now; a session created later uses the same download. It never throws: if the
 * download fails, the session requests keycloak-js again when it starts. `preloadIdentityClient` (preload.ts)
 * calls it.
 */
export function preloadKeycloak(): void {
  importKeycloak().catch(() => undefined);
}

/**
 * Whether the provider at `url` has the page's scheme and host (its port may differ): one site, so the provider's
 * cookies are first-party in its frames on this page, in every browser, whatever its third-party-cookie setting.
 */
export function providerOnThePagesHost(url: string, pageOrigin: string | undefined): boolean {
  if (!pageOrigin) return false;
  const provider = new URL(url);
  const page = new URL(pageOrigin);
  return provider.protocol === page.protocol && provider.hostname === page.hostname;
}

/**
 * keycloak-js's configuration for `settings` on a page of `pageOrigin`. Keycloak's form (url, realm) makes
 * keycloak-js load the provider's third-party-cookie check (`3p-cookies/step1.html`, `step2.html`) before every
 * check-sso, to learn whether its frame and silent check-sso can run. When the provider is on the page's host that
 * answer can only be `supported`, so the same endpoints are given in keycloak-js's generic-OIDC form, which has no
 * such check: two provider requests less per page load, the frame and silent check-sso as before (decisions/0097).
 */
export function keycloakConfig(settings: KeycloakServerSettings, pageOrigin: string | undefined): KeycloakConfig {
  const { url, realm, clientId } = settings;
  if (!providerOnThePagesHost(url, pageOrigin)) return { url, realm, clientId };
  const oidc = `${url.replace(/\/+$/, '')}/realms/${encodeURIComponent(realm)}/protocol/openid-connect`;
  return {
    clientId,
    oidcProvider: {
      authorization_endpoint: `${oidc}/auth`,
      token_endpoint: `${oidc}/token`,
      userinfo_endpoint: `${oidc}/userinfo`,
      check_session_iframe: `${oidc}/login-status-iframe.html`,
      end_session_endpoint: `${oidc}/logout`,
    },
  };
}

/**
 * The real factory. keycloak-js is ESM-only and jest runs CommonJS, so it is loaded with a dynamic
 * `import()` that only runs when a real session starts (or preloadIdentityClient asks for it); bundlers
 * split it into a chunk of its own.
 */
export const loadKeycloak: KeycloakFactory = async (settings) => {
  const { default: KeycloakClass } = await importKeycloak();
  const config = keycloakConfig(settings, globalThis.location?.origin);
  const kc = new KeycloakClass(config);
  if ('oidcProvider' in config) {
    // the generic-OIDC form leaves these unset; keycloak-js builds the account endpoint (loadUserProfile) from them
    kc.authServerUrl = settings.url;
    kc.realm = settings.realm;
  }
  return kc;
};
