import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * CORS as Keycloak answers it on token, userinfo and account: only for an allowed origin,
 * that exact origin, with credentials (keycloak-js sends `credentials: 'include'`).
 * Any other origin gets no CORS headers at all, so the browser refuses the response.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, allowed: (origin: string) => boolean): void {
  res.setHeader('Vary', 'Origin');
  const origin = req.headers.origin;
  if (!origin || !allowed(origin)) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Expose-Headers', 'Access-Control-Allow-Methods, WWW-Authenticate');
}

/** Answers a preflight for the allowed origins (204), refusing others without CORS headers (403). */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, allowed: (origin: string) => boolean, methods: string): void {
  applyCors(req, res, allowed);
  const origin = req.headers.origin;
  if (!origin || !allowed(origin)) {
    res.writeHead(403, { 'Content-Length': 0 });
    res.end();
    return;
  }
  res.writeHead(204, {
    'Access-Control-Allow-Methods': methods,
    'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type',
    'Access-Control-Max-Age': '3600',
  });
  res.end();
}

/**
 * Keeps oidc-provider's own CORS headers out of a response we answer CORS for ourselves:
 * it would allow any origin and never sends Access-Control-Allow-Credentials.
 */
export function suppressForeignCors(res: ServerResponse): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = ((name: string, value: number | string | readonly string[]) => {
    if (/^access-control-/i.test(name)) return res;
    return setHeader(name, value);
  }) as ServerResponse['setHeader'];
}
