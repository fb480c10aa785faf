import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { DPOP_ALGORITHMS } from './dpop.js';
import type { ReplayStore } from './dpop.js';
import { REQUIRE_DPOP, Refusal, audiences, createVerifier } from './verify.js';
import type { Presentation } from './verify.js';

export { REQUIRE_DPOP, Refusal, SHELL_CLIENT_ID, audiences, createVerifier } from './verify.js';
export type { Presentation, Verifier, VerifierOptions } from './verify.js';
export { DPOP_ALGORITHMS, DPOP_PROOF_WINDOW_SECONDS, MemoryReplayStore, checkDpopProof } from './dpop.js';
export type { ProofTarget, ReplayStore } from './dpop.js';

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
  /**
   * Take only DPoP-bound access tokens, as `Authorization: DPoP` with a proof (default {@link REQUIRE_DPOP}, true).
   * false: an unbound token is taken as `Authorization: Bearer` too (a DPoP-bound one still needs its proof).
   */
  requireDpop?: boolean;
  /**
   * The URL the browser calls this server at, which proofs name as `htu` (default `http://localhost:<port>`): its
   * origin, and the path prefix a reverse proxy in front of it strips, if any (`https://api.example.com/demo` when
   * the proxy forwards `/demo/profile` as `/profile`). `Host` and `X-Forwarded-*` are not trusted for it.
   */
  publicUrl?: string;
  /** where DPoP proofs' `jti` are remembered (default: this process's memory); see README.md for more than one process */
  dpopReplays?: ReplayStore;
  /** no line per refused request on stderr */
  quiet?: boolean;
}

export interface DemoApi {
  url: string;
  /** the URL proofs must name (`htu`, with the request's path after it) */
  publicUrl: string;
  issuer: string;
  close(): Promise<void>;
}

export const DEFAULT_ISSUER = 'http://localhost:8080/realms/gatehouse';
const SELF = 'the Gatehouse demo API';

/**
 * Starts the demo APIs: `GET /profile`, `/admin`, `/reports` (and anything under them) answer 200 with what the
 * token says when it is a valid token of the realm for that API's audience alone, bound to a DPoP key and sent as
 * `Authorization: DPoP` with a proof of that key for this request, else 401 with the reason
 * (`WWW-Authenticate: DPoP realm="…", error="invalid_token"|"invalid_dpop_proof", error_description="…", algs="…"`,
 * the same words as the text body); 503 with the reason when the identity provider cannot be asked for its keys.
 * CORS for `origins` only.
 */
export async function startDemoApi(options: DemoApiOptions = {}): Promise<DemoApi> {
  const issuer = (options.issuer ?? DEFAULT_ISSUER).replace(/\/$/, '');
  if (options.publicUrl !== undefined) {
    const given = URL.canParse(options.publicUrl) ? new URL(options.publicUrl) : undefined;
    if (!given || !/^https?:$/.test(given.protocol) || given.search || given.hash || given.username || given.password) {
      throw new Error(`publicUrl: "${options.publicUrl}" is not an http(s) URL without query, fragment or credentials`);
    }
  }
  const requireDpop = options.requireDpop ?? REQUIRE_DPOP;
  const verifier = createVerifier(issuer, options.clientId, { requireDpop, replays: options.dpopReplays });
  /** The URL proofs name, without a trailing slash; the default needs the port, known once the server listens. */
  const publicUrl = () => (options.publicUrl ?? `http://localhost:${(server.address() as AddressInfo).port}`).replace(/\/+$/, '');
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
      // The 401's reason; no DPoP-Nonce is ever sent, so none is exposed.
      res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
    }
    if (path === '/health') return text(res, 200, 'ok');
    const api = APIS.find((a) => path === a.path || path.startsWith(`${a.path}/`));
    if (!api) return text(res, 404, `no API at ${path}; ${SELF} answers ${APIS.map((a) => a.path).join(', ')}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return text(res, 405, `${api.path} answers GET only, not ${req.method}`);
    }
    const presented = presentedToken(req);
    const dpopChallenge = `DPoP realm="${api.audience}", algs="${DPOP_ALGORITHMS.join(' ')}"`;
    if (presented === undefined) {
      // RFC 6750 3.1, RFC 9449 7.1: a request without credentials gets the challenge without an error code.
      res.setHeader('WWW-Authenticate', requireDpop ? dpopChallenge : [dpopChallenge, `Bearer realm="${api.audience}"`]);
      return text(
        res,
        401,
        requireDpop
          ? 'no access token: send Authorization: DPoP <token> with a DPoP proof'
          : 'no access token (Authorization: Bearer or DPoP)',
      );
    }
    try {
      const presentation: Presentation = {
        ...presented,
        proofs: req.headersDistinct['dpop'] ?? [],
        target: { method: req.method ?? 'GET', url: new URL(`${publicUrl()}${path}`) },
      };
      const claims = await verifier.verifyPresented(presentation, api.audience);
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
      const detail = `error="${error.error}", error_description="${quoted(error.reason)}"`;
      // A DPoP challenge (RFC 9449 7.1) unless bearer tokens are taken and this one came as one.
      res.setHeader(
        'WWW-Authenticate',
        requireDpop || presented.scheme === 'DPoP' || error.dpop
          ? `DPoP realm="${api.audience}", ${detail}, algs="${DPOP_ALGORITHMS.join(' ')}"`
          : `Bearer realm="${api.audience}", ${detail}`,
      );
      return text(res, 401, error.reason);
    }
  }

  /** A CORS preflight: allowed for the listed origins, GET, and no request header but Authorization and DPoP. */
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
        : headers.some((h) => !ALLOWED_HEADERS.has(h))
          ? `request headers ${headers.filter((h) => !ALLOWED_HEADERS.has(h)).join(', ')} are not allowed (Authorization and DPoP only)`
          : undefined;
    if (refused) return text(res, 403, `CORS preflight refused: ${refused}`);
    res.writeHead(204, {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': 'GET',
      'Access-Control-Allow-Headers': 'Authorization, DPoP',
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
    publicUrl: publicUrl(),
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

/** The request headers a page may send (CORS): the token and its proof. */
const ALLOWED_HEADERS = new Set(['authorization', 'dpop']);

/** The token of `Authorization: Bearer <token>` or `Authorization: DPoP <token>` (the scheme in any case), or undefined. */
function presentedToken(req: IncomingMessage): { scheme: 'Bearer' | 'DPoP'; token: string } | undefined {
  const match = /^(Bearer|DPoP) +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match?.[2]) return undefined;
  return { scheme: match[1]?.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: match[2] };
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
