import type { Realm } from '../realm/model.js';
import { escapeHtml } from './html.js';
import { layout } from './layout.js';

/** Keycloak's error page: a message, never a redirect to an unverified address. */
export function errorPage(realm: Pick<Realm, 'name' | 'displayName'>, message: string): string {
  return layout(realm, 'We are sorry...', `<p id="kc-error-message" class="alert" role="alert">${escapeHtml(message)}</p>`);
}
