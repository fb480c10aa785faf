import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Refusal, audiences, createVerifier } from './verify.js';

export { Refusal, SHELL_CLIENT_ID, audiences, createVerifier } from './verify.js';

/** One API per demo remote: its path and the audience a token for it names (the realm file's client scopes, decisions/0055). */
export const APIS = [
  { api: 'profile', path: '/profile', audience: 'profile-api' },
  { api: 'admin', path: '/admin', audience: 'admin-api' },
  { api: 'reports', path: '/reports', audience: 'reports-api' },
] as const;

export type Api = (typeof APIS)[number];

export interface DemoApiOptions {
  /** default 3010; 0 picks a free one */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** the realm's issuer (default http://localhost:8080/realms/gatehouse): tokens must name it; its keys are at `{issuer}/protocol/openid-connect/certs` */
  issuer?: string;
  /** the client whose access tokens the APIs take (`azp`; default gatehouse-shell, the shell's) */
  clientId?: string;
  /** the origins whose pages may call the APIs (the shell's and the remotes'); none: no cross-origin caller */
  origins?: readonly string[];
  /** no line per refused request on stderr */
  quiet?: boolean;
}

export interface DemoApi {
  url: string;
  issuer: string;
  close(): Promise<void>;
}

export const DEFAULT_ISSUER = 'http://localhost:8080/realms/gatehouse';
const SELF = 'the Gatehouse demo API';

/**
 * Starts the demo APIs: `GET /profile`, `/admin`, `/reports` (and anything under them) answer 200 with what the
 * token says when it is a valid token of the realm for that API's audience alone, else 401 with the reason
 * (`WWW-Authenticate: Bearer error="invalid_token", error_description="…"`, the same words as the text body);
 * 503 with the reason when the identity provider cannot be asked for its keys. CORS for `origins` only.
 */
export async function startDemoApi(options: DemoApiOptions = {}): Promise<DemoApi> {
  const issuer = (options.issuer ?? DEFAULT_ISSUER).replace(/\/$/, '');
  const verifier = createVerifier(issuer, options.clientId);
  const origins = new Set(options.origins ?? []);
  const log = options.quiet ? () => {} : (line: string) => process.stderr.write(`demo-api: ${line}\n`);

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`${req.method} ${pathOf(req)}: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) text(res, 500, `${SELF} failed: ${error instanceof Error ? error.message : String(error)}`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req);
    const origin = req.headers.origin;
    res.setHeader('Vary', 'Origin');
    if (req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
      preflight(req, res, origin);
      return;
    }
    if (origin !== undefined && origins.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
    }
    if (path === '/health') return text(res, 200, 'ok');
    const api = APIS.find((a) => path === a.path || path.startsWith(`${a.path}/`));
    if (!api) return text(res, 404, `no API at ${path}; ${SELF} answers ${APIS.map((a) => a.path).join(', ')}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return text(res, 405, `${api.path} answers GET only, not ${req.method}`);
    }
    const token = bearerToken(req);
    if (token === undefined) {
      // RFC 6750 3.1: a request without credentials gets the challenge without an error code.
      res.setHeader('WWW-Authenticate', `Bearer realm="${api.audience}"`);
      return text(res, 401, 'no bearer token');
    }
    try {
      const claims = await verifier.verify(token, api.audience);
      json(res, 200, {
        api: api.api,
        audience: api.audience,
        aud: audiences(claims),
        user: claims.preferred_username,
        scope: claims.scope,
      });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      log(`${req.method} ${path}: ${error.status} ${error.reason}`);
      if (error.status === 503) {
        res.setHeader('Retry-After', '5');
        return text(res, 503, error.reason);
      }
      res.setHeader(
        'WWW-Authenticate',
        `Bearer realm="${api.audience}", error="invalid_token", error_description="${quoted(error.reason)}"`,
      );
      return text(res, 401, error.reason);
    }
  }

  /** A CORS preflight: allowed for the listed origins, GET, and no request header but Authorization. */
  function preflight(req: IncomingMessage, res: ServerResponse, origin: string): void {
    const method = String(req.headers['access-control-request-method']);
    const headers = String(req.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    const refused = !origins.has(origin)
      ? `origin ${origin} may not call ${SELF}`
      : method !== 'GET'
        ? `method ${method} is not allowed (GET only)`
        : headers.some((h) => h !== 'authorization')
          ? `request headers ${headers.filter((h) => h !== 'authorization').join(', ')} are not allowed (Authorization only)`
          : undefined;
    if (refused) return text(res, 403, `CORS preflight refused: ${refused}`);
    res.writeHead(204, {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': 'GET',
      'Access-Control-Allow-Headers': 'Authorization',
      'Access-Control-Max-Age': '600',
    });
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3010, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://demo-api').pathname;
}

/** The token of `Authorization: Bearer <token>` (the scheme in any case, RFC 6750), or undefined. */
function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** A reason inside a quoted-string of `WWW-Authenticate` (RFC 7230: backslash-escape `"` and `\`). */
function quoted(reason: string): string {
  return reason.replace(/["\\]/g, '\\$&');
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(JSON.stringify(body));
}
