import { randomBytes } from 'node:crypto';

import { LOGIN_ACTIONS } from './routes.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';

/** What oidc-provider tells about an interaction when it asks for its URL. */
export interface InteractionInfo {
  uid: string;
  params: Record<string, unknown>;
}

/** Keycloak's username/password form execution; Keycloak names it by a UUID, constant per realm. */
const EXECUTION = '2ef3a53b-4e54-4c8d-9a3b-0d5a0c1f4f11';

/**
 * Keycloak's login form action: `/realms/{realm}/login-actions/authenticate?session_code=…&execution=…&client_id=…&tab_id=…`.
 * `session_code` is oidc-provider's interaction uid (its cookie is scoped to this path).
 */
export function loginActionUrl(runtime: RealmRuntime, interaction: InteractionInfo): string {
  const query = new URLSearchParams({
    session_code: interaction.uid,
    execution: EXECUTION,
    client_id: String(interaction.params.client_id ?? ''),
    tab_id: randomBytes(8).toString('base64url'),
  });
  return `${runtime.path}${LOGIN_ACTIONS}?${query}`;
}
