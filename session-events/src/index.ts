import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { DPOP_ALGORITHMS, MemoryReplayStore, Refusal, SHELL_CLIENT_ID, checkDpopProof } from '@gatehouse/demo-api';
import type { ReplayStore } from '@gatehouse/demo-api';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';

import { MemoryBus, PostgresBus } from './bus.js';
import type { Bus } from './bus.js';
import { ALGORITHMS, LOGOUT_TOKEN_MAX_AGE_SECONDS, LogoutTokenRefusal, createLogoutTokenVerifier } from './logoutToken.js';
import type { SessionEnded } from './logoutToken.js';

export { BACKCHANNEL_LOGOUT_EVENT, LogoutTokenRefusal, createLogoutTokenVerifier } from './logoutToken.js';
export type { SessionEnded } from './logoutToken.js';
export { CHANNEL, MemoryBus, PostgresBus } from './bus.js';
export type { Bus } from './bus.js';

/** Where the provider posts logout tokens (the client's `backchannel.logout.url` is this service's URL and this path). */
export const BACKCHANNEL_PATH = '/backchannel-logout';
/** Where a page subscribes (`GET`, `Accept: text/event-stream`). */
export const EVENTS_PATH = '/events';
/** The SSE event that says the session ended; the stream closes after it. */
export const SESSION_ENDED_EVENT = 'session-ended';
/** Default seconds between heartbeats (an SSE comment line): below the 60 s idle timeouts of nginx and most proxies. */
export const HEARTBEAT_SECONDS = 25;
/**
 * Default seconds a stream lasts before it ends with `event: renew` and the page subscribes again with its current
 * token: the stream outlives the token it opened with (1 h, against Keycloak's 5 min tokens: at most one refresh an hour
 * for it), yet no subscription lasts unchecked for longer.
 */
export const STREAM_MAX_SECONDS = 3600;
/** The last event of a stream that reached STREAM_MAX_SECONDS: subscribe again at once. */
export const RENEW_EVENT = 'renew';
/**
 * How long an end is remembered (seconds, default 1 h): a page that subscribes or reconnects with an access token of
 * the ended session within this time hears the end at once. It must be longer than the realm's access-token lifespan
 * (Keycloak's default 5 min; the demo realm's) plus the 60 s proof window: after that no token of the session verifies.
 */
export const ENDED_TTL_SECONDS = 3600;
/** Most open streams per instance; one more is answered 503 with Retry-After. */
export const MAX_STREAMS = 20_000;

export interface SessionEventsOptions {
  /** default 3020; 0 picks a free one */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** the realm's issuer (default http://localhost:8080/realms/gatehouse) */
  issuer?: string;
  /** the client: logout tokens' `aud`, access tokens' `azp` (default gatehouse-shell) */
  clientId?: string;
  /** the origins whose pages may subscribe (the shell's and the remotes'); none: no cross-origin page */
  origins?: readonly string[];
  /** the URL browsers call this service at, which DPoP proofs name as `htu` (default http://localhost:<port>) */
  publicUrl?: string;
  /** a PostgreSQL URL: the instances share `jti`s and ends through it; none: this process alone, in memory */
  databaseUrl?: string;
  /** a bus made by the caller (tests); wins over databaseUrl */
  bus?: Bus;
  /** the realm's keys (tests); default its JWKS */
  keys?: JWTVerifyGetKey;
  /** where DPoP proofs' `jti` are remembered (default: this process's memory; a proof is good for one request anyway) */
  dpopReplays?: ReplayStore;
  heartbeatSeconds?: number;
  /** how long a stream lasts before the page subscribes again (default STREAM_MAX_SECONDS) */
  streamMaxSeconds?: number;
  endedTtlSeconds?: number;
  maxStreams?: number;
  quiet?: boolean;
}

export interface SessionEvents {
  url: string;
  publicUrl: string;
  issuer: string;
  /** open streams now */
  readonly streams: number;
  bus: Bus;
  close(): Promise<void>;
}

export const DEFAULT_ISSUER = 'http://localhost:8080/realms/gatehouse';
const SELF = 'the Gatehouse session-events service';

interface Stream {
  sid: string;
  sub: string;
  res: ServerResponse;
  heartbeat: NodeJS.Timeout;
  expiry: NodeJS.Timeout;
}

/**
 * Starts the service (README.md says what it answers, exactly). `POST /backchannel-logout` takes the provider's logout
 * tokens; `GET /events` streams "this session ended" to a page of that session; `GET /health` says whether it can
 * deliver (200) or not (503: the database is out of reach).
 */
export async function startSessionEvents(options: SessionEventsOptions = {}): Promise<SessionEvents> {
  const issuer = (options.issuer ?? DEFAULT_ISSUER).replace(/\/$/, '');
  const clientId = options.clientId ?? SHELL_CLIENT_ID;
  const keys =
    options.keys ??
    createRemoteJWKSet(new URL(`${issuer}/protocol/openid-connect/certs`), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
      cacheMaxAge: 600_000,
    });
  const verifyLogoutToken = createLogoutTokenVerifier({ issuer, clientId, keys });
  const bus = options.bus ?? (options.databaseUrl ? await PostgresBus.connect({ connectionString: options.databaseUrl }) : new MemoryBus());
  const ownsBus = options.bus === undefined;
  const replays = options.dpopReplays ?? new MemoryReplayStore();
  const heartbeatMs = (options.heartbeatSeconds ?? HEARTBEAT_SECONDS) * 1000;
  const streamMaxMs = (options.streamMaxSeconds ?? STREAM_MAX_SECONDS) * 1000;
  const endedTtl = options.endedTtlSeconds ?? ENDED_TTL_SECONDS;
  const maxStreams = options.maxStreams ?? MAX_STREAMS;
  const origins = new Set(options.origins ?? []);
  const log = options.quiet ? () => {} : (line: string) => process.stderr.write(`session-events: ${line}\n`);
  const publicUrl = () => (options.publicUrl ?? `http://localhost:${(server.address() as AddressInfo).port}`).replace(/\/+$/, '');
  /** open streams by sid */
  const bySid = new Map<string, Set<Stream>>();
  let open = 0;

  const removeListener = bus.listen((ended) => {
    const targets: Stream[] = [];
    if (ended.sid !== undefined) targets.push(...(bySid.get(ended.sid) ?? []));
    else for (const set of bySid.values()) for (const s of set) if (s.sub === ended.sub) targets.push(s);
    for (const stream of targets) {
      // a token naming both must name this session's user too
      if (ended.sub !== undefined && ended.sub !== stream.sub) continue;
      endStream(stream, SESSION_ENDED_EVENT, endedData(ended), ended.jti);
    }
  });
  // Lost the database: the streams could miss an end, so they close; the pages reconnect (and get 503 until it is back).
  const removeLost = bus.onLost((error) => {
    log(`the database connection was lost (${error.message}): closing ${open} stream(s)`);
    for (const set of bySid.values()) for (const stream of set) endStream(stream, 'unavailable', { reason: 'database' });
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`${req.method} ${pathOf(req)}: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) json(res, 500, { error: 'server_error', error_description: `${SELF} failed` });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req);
    if (path === BACKCHANNEL_PATH) return backchannel(req, res);
    if (path === EVENTS_PATH) return events(req, res);
    if (path === '/health') {
      const up = !(bus instanceof PostgresBus) || bus.listening;
      return json(res, up ? 200 : 503, { status: up ? 'up' : 'down', streams: open });
    }
    return json(res, 404, { error: 'not_found', error_description: `${SELF} answers ${BACKCHANNEL_PATH} and ${EVENTS_PATH}` });
  }

  /** OpenID Connect Back-Channel Logout 1.0, 2.5–2.8: a form `logout_token`; 200, or 400 with a JSON error. */
  async function backchannel(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return json(res, 405, { error: 'invalid_request', error_description: `${BACKCHANNEL_PATH} takes POST only` });
    }
    const refuse = (error: string, description: string) => {
      log(`POST ${BACKCHANNEL_PATH}: 400 ${description}`);
      json(res, 400, { error, error_description: description });
    };
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      req.resume();
      return refuse('invalid_request', 'the body must be application/x-www-form-urlencoded with a logout_token');
    }
    const body = await readBody(req, 16 * 1024);
    if (body === undefined) return refuse('invalid_request', 'the body is larger than 16 KiB');
    const form = new URLSearchParams(body);
    const tokens = form.getAll('logout_token');
    if (tokens.length !== 1 || !tokens[0]) return refuse('invalid_request', 'the body must carry exactly one logout_token');
    let ended: SessionEnded;
    try {
      ended = await verifyLogoutToken(tokens[0]);
    } catch (error) {
      if (error instanceof LogoutTokenRefusal) return refuse(error.error, error.reason);
      throw error;
    }
    try {
      // a token is refused once its iat is older than the max age: its jti need not be remembered longer (plus skew)
      if (!(await bus.firstUse(`${ended.iss} ${ended.jti}`, LOGOUT_TOKEN_MAX_AGE_SECONDS + 120))) {
        return refuse('invalid_request', 'this logout token was used before (jti)');
      }
      await bus.publish(ended, endedTtl);
    } catch (error) {
      return refuse(
        'temporarily_unavailable',
        `the logout could not be recorded (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    log(`session ended: sid ${ended.sid ?? '-'} sub ${ended.sub ?? '-'}`);
    res.writeHead(200, { 'Cache-Control': 'no-store', 'Content-Length': '0' });
    res.end();
  }

  function cors(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    res.setHeader('Vary', 'Origin');
    if (origin === undefined) return true;
    if (!origins.has(origin)) return false;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, Retry-After');
    return true;
  }

  async function events(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = req.headers.origin;
    if (req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Vary', 'Origin');
      const method = String(req.headers['access-control-request-method']);
      const headers = String(req.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
      if (!origins.has(origin) || method !== 'GET' || headers.some((h) => !PAGE_HEADERS.has(h))) {
        return json(res, 403, { error: 'cors', error_description: `CORS preflight refused for ${origin} ${method} ${headers.join(',')}` });
      }
      res.writeHead(204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET',
        'Access-Control-Allow-Headers': 'Authorization, DPoP, Last-Event-ID',
        'Access-Control-Max-Age': '600',
      });
      return void res.end();
    }
    if (!cors(req, res)) return json(res, 403, { error: 'cors', error_description: `origin ${origin} may not subscribe` });
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET, OPTIONS');
      return json(res, 405, { error: 'invalid_request', error_description: `${EVENTS_PATH} takes GET only` });
    }
    const challenge = `DPoP realm="session-events", algs="${DPOP_ALGORITHMS.join(' ')}"`;
    const match = /^DPoP +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const token = match?.[1];
    if (!token) {
      res.setHeader('WWW-Authenticate', challenge);
      return json(res, 401, { error: 'invalid_token', error_description: 'send Authorization: DPoP <access token> with a DPoP proof' });
    }
    let claims: JWTPayload;
    try {
      claims = await verifyAccessToken(token);
      const jkt = (claims['cnf'] as { jkt?: unknown } | undefined)?.jkt;
      if (typeof jkt !== 'string' || jkt === '') throw new Refusal('this token is not bound to a DPoP key (no cnf.jkt)');
      await checkDpopProof(req.headersDistinct['dpop'] ?? [], { method: 'GET', url: new URL(`${publicUrl()}${EVENTS_PATH}`) }, token, jkt, {
        replays,
      });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      log(`GET ${EVENTS_PATH}: ${error.status} ${error.reason}`);
      if (error.status === 503) {
        res.setHeader('Retry-After', '5');
        return json(res, 503, { error: 'temporarily_unavailable', error_description: error.reason });
      }
      res.setHeader(
        'WWW-Authenticate',
        `DPoP realm="session-events", error="${error.error}", error_description="${error.reason.replace(/["\\]/g, '\\$&')}", algs="${DPOP_ALGORITHMS.join(' ')}"`,
      );
      return json(res, 401, { error: error.error, error_description: error.reason });
    }
    const sid = claims['sid'] as string;
    const sub = claims.sub as string;
    if (open >= maxStreams) {
      res.setHeader('Retry-After', '30');
      return json(res, 503, {
        error: 'temporarily_unavailable',
        error_description: `${open} streams are open, the most this instance holds`,
      });
    }
    if (bus instanceof PostgresBus && !bus.listening) {
      res.setHeader('Retry-After', '5');
      return json(res, 503, {
        error: 'temporarily_unavailable',
        error_description: 'the database is out of reach: events cannot be delivered now',
      });
    }
    let before: SessionEnded | undefined;
    try {
      before = await bus.endedBefore(sid, sub);
    } catch (error) {
      res.setHeader('Retry-After', '5');
      return json(res, 503, {
        error: 'temporarily_unavailable',
        error_description: `the database is out of reach (${error instanceof Error ? error.message : String(error)})`,
      });
    }
    if (before && before.sub !== undefined && before.sub !== sub) before = undefined;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
    });
    res.socket?.setNoDelay(true);
    res.socket?.setKeepAlive(true, heartbeatMs);
    res.write(`retry: 5000\n\n`);
    if (before) {
      res.end(frame(SESSION_ENDED_EVENT, endedData(before), before.jti));
      return;
    }
    const stream: Stream = {
      sid,
      sub,
      res,
      heartbeat: setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs),
      // The token is checked when the stream opens; the stream outlives it (it carries only its own session's end, and
      // ends with that session), so an untouched page costs the provider no refresh for it. Bounded all the same: after
      // streamMaxSeconds the page subscribes again, with its current token.
      expiry: setTimeout(() => endStream(stream, RENEW_EVENT, { maxAgeSeconds: streamMaxMs / 1000 }), streamMaxMs),
    };
    let set = bySid.get(sid);
    if (!set) bySid.set(sid, (set = new Set()));
    set.add(stream);
    open++;
    res.write(frame('ready', { sid, heartbeatSeconds: heartbeatMs / 1000, maxAgeSeconds: streamMaxMs / 1000 }));
    res.on('close', () => forget(stream));
  }

  function forget(stream: Stream): void {
    clearInterval(stream.heartbeat);
    clearTimeout(stream.expiry);
    const set = bySid.get(stream.sid);
    if (set?.delete(stream)) {
      open--;
      if (set.size === 0) bySid.delete(stream.sid);
    }
  }

  function endStream(stream: Stream, event: string, data: unknown, id?: string): void {
    forget(stream);
    if (!stream.res.writableEnded) stream.res.end(frame(event, data, id));
  }

  async function verifyAccessToken(token: string): Promise<JWTPayload> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, { issuer, algorithms: ALGORITHMS, requiredClaims: ['exp'] }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new Refusal('token expired');
      if (error instanceof errors.JWSSignatureVerificationFailed) throw new Refusal('signature does not verify');
      if (error instanceof errors.JWKSNoMatchingKey) throw new Refusal('signed with a key the realm does not publish');
      if (error instanceof errors.JWTClaimValidationFailed) throw new Refusal(`claim ${error.claim} is not valid: ${error.reason}`);
      if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) {
        throw new Refusal('not a signed JWT access token');
      }
      throw new Refusal(`the realm's keys could not be read: ${error instanceof Error ? error.message : String(error)}`, 503);
    }
    if (payload['typ'] !== 'Bearer' && payload['typ'] !== 'DPoP')
      throw new Refusal(`not an access token (typ ${JSON.stringify(payload['typ'] ?? null)})`);
    if (payload['azp'] !== clientId)
      throw new Refusal(`this token was issued to ${JSON.stringify(payload['azp'] ?? null)}, not to ${clientId}`);
    if (typeof payload['sid'] !== 'string' || payload['sid'] === '') throw new Refusal('this token names no session (sid)');
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new Refusal('this token names no user (sub)');
    return payload;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3020, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://localhost:${port}`;
  return {
    url,
    publicUrl: publicUrl(),
    issuer,
    get streams() {
      return open;
    },
    bus,
    async close() {
      removeListener();
      removeLost();
      for (const set of [...bySid.values()]) for (const stream of [...set]) endStream(stream, 'closing', {});
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      if (ownsBus) await bus.close();
    },
  };
}

/** The request headers a page may send: the token, its proof, and the SSE reconnect header. */
const PAGE_HEADERS = new Set(['authorization', 'dpop', 'last-event-id']);

/** The `data` of a `session-ended` event: which session, whose, when, and why as far as the logout token tells. */
function endedData(ended: SessionEnded) {
  return { sid: ended.sid ?? null, sub: ended.sub ?? null, reason: 'backchannel-logout', iat: ended.iat };
}

function frame(event: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id.replace(/[\r\n]/g, '')}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://session-events').pathname;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
