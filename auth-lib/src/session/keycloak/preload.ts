import { preloadKeycloak } from './keycloak';
import { preloadTokenVerifier } from '../tokens/tokenVerifier';

/**
 * Starts downloading keycloak-js now, so that it is on the page when the session starts instead of being
 * requested only then. Call it as early as the page knows it will sign in (the shell: first thing in its
 * bootstrap, before it fetches its config.json); a session created later uses the same download. It never
 * throws: if the download fails, the session requests keycloak-js again when it starts and reports the
 * failure as its own error. `identityProvider` (config.json's, once it has arrived): a tab that another tab of
 * the origin will seed also fetches the provider's keys it verifies the seed with.
 *
 * It lives apart from keycloak.ts, the keycloak-js boundary, so that the boundary imports nothing of the session's
 * (tokenVerifier → tokenSet imports keycloak.ts's KeycloakLike: one module holding both made an import cycle).
 *
 * @example
 * preloadIdentityClient();
 * const config = await loadConfig();
 * const session = createSession(config.identityProvider);
 */
export function preloadIdentityClient(identityProvider?: PromiseLike<{ url: string; realm: string } | null | undefined>): void {
  preloadKeycloak();
  // only when another tab leads, whose tokens this one will verify: jose, and the provider's keys (decisions/0053)
  preloadTokenVerifier(identityProvider);
}
