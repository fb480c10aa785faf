import type { Realm } from '../realm/model.js';
import { escapeHtml } from './html.js';
import { layout } from './layout.js';

/** Keycloak's "Do you want to log out?" page, shown when logout has no valid id_token_hint. */
export function logoutConfirmPage(realm: Realm, action: string, fields: Record<string, string>): string {
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return layout(
    realm,
    'Logging out',
    `
<p>Do you want to log out?</p>
<form id="kc-logout-confirm" action="${escapeHtml(action)}" method="post">
${hidden}
<input type="hidden" name="confirm" value="true">
<input id="kc-logout" name="confirmLogout" type="submit" value="Logout">
</form>`,
  );
}

/** Shown after logout when there is no registered address to return to. */
export function loggedOutPage(realm: Realm): string {
  return layout(realm, 'You are logged out', '<p id="kc-logged-out">You have signed out of this realm.</p>');
}
