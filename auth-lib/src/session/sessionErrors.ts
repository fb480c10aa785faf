import { AuthError } from '../errors';
import type { ResolvedConfig } from './config';
import { FRAME_ERROR_MESSAGE } from './keycloak/keycloak';
import { describeError, protocolErrorOf } from './util/scrub';

/** The provider did not answer within the configured timeout. */
export function unreachableError(config: ResolvedConfig): AuthError {
  return new AuthError(
    'idp-unreachable',
    `The identity provider at ${config.url} did not answer within ${config.timeout} ms. ` +
      `Check that it runs and that the URL in config.json is right; session.retry() tries again.`,
  );
}

/**
 * The login-status frame refused this page's origin. keycloak-js only says "Error while checking login iframe";
 * at `init()` that is the frame's refused `/init` (403), on Keycloak 26 as on the dev identity provider: the
 * frame's other `error`, no access to its cookies, is what keycloak-js's third-party-cookie check before it
 * already turns the frame off for (decisions/0051).
 */
export function originRefusedError(config: ResolvedConfig, origin: string, cause: unknown): AuthError {
  return new AuthError(
    'origin-not-allowed',
    `The identity provider at ${config.url} does not accept this origin: add ${origin} to the web origins of client ` +
      `"${config.clientId}" (realm "${config.realm}"), then session.retry(). Its login-status frame answered "error", as it does when ` +
      `…/login-status-iframe.html/init refuses the origin (403). Keycloak: admin console → Clients → ${config.clientId} → Web origins ` +
      `(and Valid redirect URIs); Gatehouse's dev identity provider: deploy/keycloak/gatehouse-realm.local.json ` +
      `(npm run new-remote writes it).`,
    { cause },
  );
}

/** What keycloak-js's `init()` failing means for the visitor: a refused sign-in or origin, or no provider. */
export function initError(config: ResolvedConfig, error: unknown, origin: string): AuthError {
  if (error instanceof AuthError) return error;
  if (error instanceof Error && error.message === FRAME_ERROR_MESSAGE) return originRefusedError(config, origin, error);
  const isCallbackError = typeof error === 'object' && error !== null && 'error' in error;
  if (isCallbackError || (error instanceof Error && /nonce/i.test(error.message))) {
    return new AuthError(
      'login-failed',
      `The identity provider refused the sign-in (${describeError(error)}). Sign in again; if it keeps failing, check the client "${config.clientId}" and its redirect URIs.`,
      { cause: error, protocol: protocolErrorOf(error) },
    );
  }
  return new AuthError(
    'idp-unreachable',
    `Could not reach the identity provider at ${config.url} (${describeError(error)}). ` +
      `Check that it runs and that the URL in config.json is right; session.retry() tries again.`,
    { cause: error },
  );
}

/** Whether the address carries a sign-in callback (keycloak-js then exchanges its code; nothing to seed). */
export function isLoginCallback(location: Pick<Location, 'hash' | 'search'>): boolean {
  const params = `${location.hash.replace(/^#/, '&')}&${location.search.replace(/^\?/, '')}`;
  return /(^|&)state=/.test(params) && /(^|&)(code|error)=/.test(params);
}
