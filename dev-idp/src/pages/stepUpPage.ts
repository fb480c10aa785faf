import type { Realm } from '../realm/model.js';
import { escapeHtml } from './html.js';
import { layout } from './layout.js';

export interface StepUpPageOptions {
  action: string;
  /** the signed-in user, named on the page */
  username: string;
  /** the level this step reaches, e.g. "gold" */
  level: string;
  error?: string;
  lang?: string;
}

/**
 * The dev IdP's step for one level of authentication above the password: the password again. Keycloak
 * runs whatever the browser flow configures for that level (an OTP form, WebAuthn); see dev-idp/README.md.
 * Keycloak's ids where they apply: `#password`, `#kc-login`, `#input-error`, and the user it is for in a read-only
 * `#kc-attempted-username` field, as Keycloak's login theme shows it.
 */
export function stepUpPage(realm: Realm, { action, username, level, error, lang }: StepUpPageOptions): string {
  const invalid = error ? ' aria-invalid="true" aria-describedby="input-error"' : '';
  return layout(
    realm,
    'Confirm it is you',
    `
${error ? `<p id="input-error" class="alert" role="alert">${escapeHtml(error)}</p>` : ''}
<p id="kc-step-up">Level “${escapeHtml(level)}” needs one more step. Enter your password again.</p>
<label for="kc-attempted-username">Username</label>
<input id="kc-attempted-username" value="${escapeHtml(username)}" readonly>
<form id="kc-form-login" action="${escapeHtml(action)}" method="post">
<input type="hidden" name="step" value="loa">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" autofocus required${invalid}>
<input id="kc-login" name="login" type="submit" value="Sign In">
</form>`,
    lang,
  );
}
