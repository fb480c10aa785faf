import type { Client } from '../realm/model.js';

/** Keycloak decodes a redirect URI at most this often; one still encoded after that is refused. */
const MAX_DECODING = 5;

/**
 * The part of a redirect URI before its query and fragment, percent-decoded as Keycloak's `RedirectUtils`
 * does (repeatedly, so `%252e` counts as `.`), or undefined when it cannot be decoded or climbs out of its
 * path with a `..` segment (`/app/../x`, `/app/%2e%2e/x`, `/app/x/..`): browsers and servers resolve those
 * after the check, so a prefix check on the raw text would let `/app/*` reach any path.
 */
function decodedTarget(uri: string): string | undefined {
  let target = uri.replace(/[?#].*$/, '');
  for (let round = 0; /%[0-9a-f]{2}/i.test(target); round++) {
    if (round === MAX_DECODING) return undefined;
    try {
      target = decodeURIComponent(target);
    } catch {
      return undefined;
    }
  }
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return path.split('/').includes('..') ? undefined : target;
}

/**
 * Keycloak's redirect URI rule: an exact match, or a pattern ending in `*` whose prefix the decoded
 * URI starts with (query and fragment ignored, `..` segments refused); `http://host/*` also allows
 * `http://host` itself. URIs with user info (`http://good@evil`) are refused outright.
 */
export function redirectUriMatches(uri: string, patterns: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  return patterns.some((pattern) => {
    if (!pattern.endsWith('*') || pattern.includes('?')) return pattern === uri;
    const target = decodedTarget(uri);
    if (target === undefined) return false;
    const prefix = pattern.slice(0, -1);
    return target.startsWith(prefix) || (prefix.endsWith('/') && target === prefix.slice(0, -1));
  });
}

/** The client's web origins with `+` expanded to its redirect URIs' origins (`*` kept). */
export function webOrigins(client: Client): string[] {
  const origins = new Set<string>();
  for (const origin of client.webOrigins) {
    if (origin === '+') {
      for (const uri of client.redirectUris) {
        const o = originOf(uri.replace(/\*$/, ''));
        if (o) origins.add(o);
      }
    } else {
      origins.add(origin.replace(/\/$/, ''));
    }
  }
  return [...origins];
}

/** Whether a browser origin may call this client's endpoints (CORS, login-status frame). */
export function originAllowed(client: Client, origin: string): boolean {
  const allowed = webOrigins(client);
  return allowed.includes('*') || allowed.includes(origin);
}

/** The client's post-logout redirect URI patterns: `+` expanded to its redirect URIs, `-` none at all. */
export function postLogoutRedirectUris(client: Client): string[] {
  if (client.postLogoutRedirectUris.includes('-')) return [];
  return client.postLogoutRedirectUris.flatMap((uri) => (uri === '+' ? client.redirectUris : [uri]));
}

function originOf(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
