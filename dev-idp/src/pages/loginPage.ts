import type { Realm } from '../realm/model.js';
import { escapeHtml } from './html.js';
import { layout } from './layout.js';

export interface LoginPageOptions {
  action: string;
  username?: string;
  error?: string;
  /** the page's language (see locale.ts) */
  lang?: string;
}

/** Keycloak's login form, with its element ids (`#username`, `#password`, `#kc-login`, `#input-error`). */
export function loginPage(realm: Realm, { action, username = '', error, lang }: LoginPageOptions): string {
  const invalid = error ? ' aria-invalid="true" aria-describedby="input-error"' : '';
  return layout(
    realm,
    'Sign in to your account',
    `
${error ? `<p id="input-error" class="alert" role="alert">${escapeHtml(error)}</p>` : ''}
<form id="kc-form-login" action="${escapeHtml(action)}" method="post">
<label for="username">Username or email</label>
<input id="username" name="username" type="text" value="${escapeHtml(username)}" autocomplete="username" autofocus required${invalid}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}>
<input id="kc-login" name="login" type="submit" value="Sign In">
</form>`,
    lang,
  );
}
