import type { IncomingMessage } from 'node:http';

/** The shell's dev server origin (`npm start`): the one page that loads the remotes in development. */
export const SHELL_DEV_ORIGIN = 'http://localhost:3000';

/**
 * Whether a request's `Origin` is one of `allowed`. An allowed origin may end in `:*` (any port of
 * that host), the form config.json's `overrides.allowedOrigins` uses.
 */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    if (!entry.endsWith(':*')) return entry === origin;
    const prefix = entry.slice(0, -1); // "http://localhost:"
    return origin.startsWith(prefix) && /^\d+$/.test(origin.slice(prefix.length));
  });
}

/**
 * The dev server's CORS headers: `Access-Control-Allow-Origin` echoes the page's origin only when it is
 * one of the shell origins, as production's nginx does (deploy/nginx); any other page gets no grant.
 */
export function devServerCors(allowed: readonly string[]): (request: IncomingMessage) => Record<string, string> {
  return (request) => {
    const origin = request.headers.origin;
    const headers: Record<string, string> = { Vary: 'Origin' };
    if (typeof origin === 'string' && originAllowed(origin, allowed)) headers['Access-Control-Allow-Origin'] = origin;
    return headers;
  };
}
