import type { IncomingMessage } from 'node:http';

import type { RealmRuntime } from '../server/RealmRuntime.js';
import { cookieAttributes } from './frontendUrl.js';

/** The request's cookies by name (first value wins). */
export function readCookies(req: IncomingMessage): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    if (!(name in cookies)) cookies[name] = decodeURIComponent(part.slice(index + 1).trim());
  }
  return cookies;
}

/** `KEYCLOAK_SESSION`: readable by the login-status frame's script, so not HttpOnly. `value` empty clears it. */
export function sessionCookie(runtime: RealmRuntime, value: string): string {
  const maxAge = value ? runtime.realm.ssoSessionMaxLifespan : 0;
  return `KEYCLOAK_SESSION=${value}; Path=${runtime.path}/; Max-Age=${maxAge}; ${cookieAttributes()}`;
}

/** Set-Cookie headers that end the browser's SSO session for the realm. */
export function clearedSessionCookies(runtime: RealmRuntime): string[] {
  const expire = (name: string, httpOnly: boolean): string =>
    `${name}=; Path=${runtime.path}/; Max-Age=0; ${cookieAttributes()}${httpOnly ? '; HttpOnly' : ''}`;
  return [
    sessionCookie(runtime, ''),
    expire('KEYCLOAK_IDENTITY', true),
    expire('KEYCLOAK_IDENTITY.sig', true),
    expire('KEYCLOAK_IDENTITY.legacy', true),
  ];
}
