import { AuthError } from '../errors';
import type { ResolvedConfig } from './config';
import { describeError, protocolErrorOf } from './scrub';

/** The provider did not answer within the configured timeout. */
export function unreachableError(config: ResolvedConfig): AuthError {
  return new AuthError(
    'idp-unreachable',
    `The identity provider at ${config.url} did not answer within ${config.timeout} ms. ` +
      `Check that it runs and that the URL in config.json is right; session.retry() tries again.`,
  );
}

/** What keycloak-js's `init()` failing means for the visitor: a refused sign-in, or no provider. */
export function initError(config: ResolvedConfig, error: unknown): AuthError {
  if (error instanceof AuthError) return error;
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
