import { AuthError } from '../../errors';
import type { LoginOptions } from '../../types';
import type { KeycloakLoginOptions } from './keycloak';

const PROMPTS: readonly string[] = ['none', 'login', 'consent'];

/**
 * The keycloak-js login options for `login(options)`, besides `redirectUri`. keycloak-js turns them into
 * the authorization URL's `ui_locales`, `login_hint`, `kc_idp_hint`, `prompt` and, for `acr`, a `claims`
 * parameter `{"id_token":{"acr":{"values":[acr],"essential":true}}}`: essential, because Keycloak then
 * runs the step-up for that level (or refuses the sign-in) instead of treating it as a wish.
 */
export function keycloakLoginOptions(options: LoginOptions): Omit<KeycloakLoginOptions, 'redirectUri'> {
  const result: { -readonly [K in keyof KeycloakLoginOptions]?: KeycloakLoginOptions[K] } = {};
  const locale = optionalText(options, 'locale', '"de" or "de-CH fr"');
  if (locale !== undefined) result.locale = locale;
  const loginHint = optionalText(options, 'loginHint', '"alice" or "alice@example.com"');
  if (loginHint !== undefined) result.loginHint = loginHint;
  const idpHint = optionalText(options, 'idpHint', 'the alias of an identity provider of the realm, e.g. "google"');
  if (idpHint !== undefined) result.idpHint = idpHint;
  const acr = optionalText(options, 'acr', '"gold" (a name of the realm\'s acr.loa.map) or a level such as "2"');
  if (acr !== undefined) {
    if (/\s/.test(acr)) throw invalid('acr', acr, 'one level without spaces, e.g. "gold"');
    result.acr = { values: [acr], essential: true };
  }
  if (options.prompt !== undefined) {
    if (!PROMPTS.includes(options.prompt)) throw invalid('prompt', options.prompt, 'one of "none", "login", "consent"');
    result.prompt = options.prompt;
  }
  return result;
}

function optionalText(options: LoginOptions, key: 'locale' | 'loginHint' | 'idpHint' | 'acr', example: string): string | undefined {
  const value: unknown = options[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalid(key, value, `a non-empty string such as ${example}`);
  return value;
}

function invalid(key: string, value: unknown, expected: string): AuthError {
  return new AuthError('invalid-argument', `login({ ${key}: ${JSON.stringify(value) ?? String(value)} }): ${key} must be ${expected}.`);
}
