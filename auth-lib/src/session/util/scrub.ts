import type { ProtocolError } from '../../errors';

/**
 * Tokens must never reach logs. Messages of errors that come from elsewhere (keycloak-js, fetch)
 * pass through here before they are quoted in an AuthError: anything shaped like a JWT is removed.
 */
const JWT_LIKE = /eyJ[\w-]*\.[\w-]+\.[\w-]*/g;
const BEARER = /(bearer\s+)[\w.~+/-]+=*/gi;

export function scrub(text: string): string {
  return text.replace(JWT_LIKE, '[token]').replace(BEARER, '$1[token]');
}

/** The OAuth `error` and `error_description` of a provider's answer (keycloak-js rejects with that object), token-free. */
export function protocolErrorOf(error: unknown): ProtocolError | null {
  if (typeof error !== 'object' || error === null || !('error' in error) || typeof error.error !== 'string') return null;
  const description = (error as { error_description?: unknown }).error_description;
  return { error: scrub(error.error), ...(typeof description === 'string' ? { error_description: scrub(description) } : {}) };
}

/** A short, token-free description of any thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return scrub(error.message);
  if (typeof error === 'object' && error !== null && 'error' in error) {
    const { error: code, error_description: description } = error as { error: unknown; error_description?: unknown };
    return scrub([code, description].filter((part) => typeof part === 'string' && part).join(': '));
  }
  return scrub(String(error));
}
