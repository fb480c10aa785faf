import type { IncomingMessage } from 'node:http';

/** What oidc-provider knew about a refused grant: its detail and the message of its cause. */
interface GrantError {
  detail?: string;
  cause?: string;
}

const errors = new WeakMap<IncomingMessage, GrantError>();

/** oidc-provider's `grant.error` listener: keeps the detail it does not put in the response. */
export function recordGrantError(req: IncomingMessage, error: { error_detail?: string; cause?: unknown }): void {
  errors.set(req, { detail: error.error_detail, cause: error.cause instanceof Error ? error.cause.message : undefined });
}

/** Keycloak 26's `error_description` for oidc-provider's refusals of a code exchange, where it has one. */
const KEYCLOAK_DESCRIPTIONS: Array<[RegExp, string]> = [
  [/^authorization code (not found|already consumed|is expired)$/, 'Code not valid'],
  [/^authorization code redirect_uri mismatch$/, 'Incorrect redirect_uri'],
  [/^code_verifier does not match code_challenge$/, 'PKCE verification failed: Code mismatch'],
  [/^code_verifier must be provided$/, 'PKCE code verifier not specified'],
];

/** The description Keycloak gives for the grant this request was refused, if the dev IdP knows it. */
export function keycloakGrantDescription(req: IncomingMessage): string | undefined {
  const error = errors.get(req);
  const reason = error?.detail ?? error?.cause;
  return reason === undefined ? undefined : KEYCLOAK_DESCRIPTIONS.find(([pattern]) => pattern.test(reason))?.[1];
}
