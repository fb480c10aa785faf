import type { Realm } from '../realm/model.js';

/**
 * The language of the login pages for a request's `ui_locales`, as Keycloak chooses it when the realm
 * has internationalization on: the first requested locale the realm supports (exactly, else by its
 * language, `de-CH` → `de`), else the realm's default. With internationalization off Keycloak shows its
 * default language whatever was asked, and so does this.
 */
export function pageLocale(realm: Pick<Realm, 'locales'>, uiLocales: unknown): string {
  const { enabled, supported, default: fallback } = realm.locales;
  if (!enabled || typeof uiLocales !== 'string') return fallback;
  const requested = uiLocales.split(' ').filter(Boolean);
  const lower = supported.map((l) => l.toLowerCase());
  for (const tag of requested) {
    const exact = lower.indexOf(tag.toLowerCase());
    if (exact >= 0) return supported[exact]!;
    const language = lower.indexOf(tag.split('-')[0]!.toLowerCase());
    if (language >= 0) return supported[language]!;
  }
  return fallback;
}
