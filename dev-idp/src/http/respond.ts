import type { IncomingMessage, ServerResponse } from 'node:http';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...NO_STORE, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An OAuth error body (`{"error", "error_description"}`) as Keycloak sends it. */
export function sendOAuthError(res: ServerResponse, status: number, error: string, description: string): void {
  sendJson(res, status, { error, error_description: description });
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, {
    ...NO_STORE,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    ...headers,
  });
  res.end(html);
}

/**
 * Headers Keycloak sends on its login and logout pages: no framing by other sites (clickjacking),
 * no content sniffing.
 */
export const PAGE_SECURITY_HEADERS = {
  'X-Frame-Options': 'SAMEORIGIN',
  'Content-Security-Policy': "frame-src 'self'; frame-ancestors 'self'; object-src 'none';",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

/** A login, logout or error page: HTML with {@link PAGE_SECURITY_HEADERS}. */
export function sendPage(res: ServerResponse, status: number, html: string, headers: Record<string, string | string[]> = {}): void {
  sendHtml(res, status, html, { ...PAGE_SECURITY_HEADERS, ...headers });
}

export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(302, { ...NO_STORE, Location: location, 'Content-Length': 0, ...headers });
  res.end();
}

/** Largest request body read (Keycloak's default HTTP limit is larger; a dev IdP needs forms and realm JSON). */
export const BODY_LIMIT = 1024 * 1024;

/** A body over {@link BODY_LIMIT}: answered 413 by the server. */
export class BodyTooLargeError extends Error {
  constructor() {
    super(`request body over ${BODY_LIMIT} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = Number(req.headers['content-length'] ?? 0);
  if (size > BODY_LIMIT) throw new BodyTooLargeError();
  size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The form fields of a POST, or the query of a GET. */
export async function readParams(req: IncomingMessage, url: URL): Promise<URLSearchParams> {
  if (req.method !== 'POST') return url.searchParams;
  return new URLSearchParams((await readBody(req)).toString('utf8'));
}

/**
 * Lets a handler read the body and still hand the request to oidc-provider, which reads the
 * stream itself: the consumed stream is replaced by one that yields `body` again.
 */
export function replayBody(req: IncomingMessage, body: Buffer): void {
  req.headers['content-length'] = String(body.length);
  Object.defineProperty(req, 'readable', { value: true, configurable: true });
  Object.defineProperty(req, 'iterator', {
    configurable: true,
    value: async function* iterator() {
      yield body;
    },
  });
}
