import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import { handleAdmin } from '../admin/adminRouter.js';
import { REALM_ROUTES } from '../endpoints/realmRoutes.js';
import { currentFrontendOrigin, frontendOrigin, HostRefusedError, withFrontendOrigin } from '../http/frontendUrl.js';
import type { FrontendOptions } from '../http/frontendUrl.js';
import { loggedUrl } from '../http/loggedUrl.js';
import { BodyTooLargeError, sendHtml, sendJson, sendPage } from '../http/respond.js';
import { errorPage } from '../pages/errorPage.js';
import { layout } from '../pages/layout.js';
import { escapeHtml } from '../pages/html.js';
import type { Realm } from '../realm/model.js';
import { RealmRuntime } from './RealmRuntime.js';
import type { RealmDirectory } from './RealmDirectory.js';
import { createProvider } from '../provider/createProvider.js';

/** How long an idle keep-alive connection stays open: as Keycloak 26 (Quarkus `quarkus.http.idle-timeout`, 30 min). */
const KEEP_ALIVE_MS = 30 * 60 * 1000;

type Callback = (req: IncomingMessage, res: ServerResponse) => void;

/** Headers through which oidc-provider (koa with `proxy` on) learns the frontend URL; set only by the server. */
const FORWARDED = ['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-forwarded-for', 'forwarded'];

function refuse(res: ServerResponse, status: number, description: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, status, { error: 'invalid_request', error_description: description }, { Connection: 'close' });
}

/**
 * The HTTP server: `/realms/{realm}/…` goes to that realm's Keycloak endpoints or its
 * oidc-provider, `/admin/…` to the admin REST subset. Realms can be added and removed while
 * it runs (that is how each test gets a fresh realm).
 */
export class DevIdpServer implements RealmDirectory {
  readonly realms = new Map<string, RealmRuntime>();
  readonly #callbacks = new WeakMap<object, Callback>();
  readonly #server: Server;
  readonly #sweeper: NodeJS.Timeout;
  readonly #frontend: FrontendOptions;
  readonly #warn: (line: string) => void;
  #listenOrigin = '';
  #held: Promise<void> = Promise.resolve();

  /** `warn`: where the realms report what goes wrong beside a request (a back-channel logout POST that failed). */
  constructor(frontend: FrontendOptions = {}, warn: (line: string) => void = () => {}) {
    this.#frontend = frontend;
    this.#warn = warn;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        if (error instanceof HostRefusedError) return refuse(res, 403, error.message);
        if (error instanceof URIError) {
          // decodeURIComponent of a path, cookie or Basic credential: the client sent it wrong.
          return refuse(
            res,
            400,
            'Malformed percent-encoding in the request (a path, cookie or credential); encode it with encodeURIComponent.',
          );
        }
        if (error instanceof BodyTooLargeError) return refuse(res, 413, `${error.message}; send a smaller request.`);
        // The path and the query's names only: a query can carry a code, an id_token_hint, a state.
        const url = (req as { originalUrl?: string }).originalUrl ?? req.url; // before a realm's provider rewrote it
        console.error('dev-idp: request failed', req.method, loggedUrl(url), error);
        if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: 'unexpected error in the dev IdP' });
        else res.end();
      });
    });
    // An idle connection stays open as long as Keycloak keeps it (Quarkus' HTTP idle timeout, 30 min), not Node's 5 s:
    // a client that pools connections (fetch, the admin client) then never sends on one the server is just closing,
    // which a busy machine turned into ECONNRESET (close() still ends every connection at once)
    this.#server.keepAliveTimeout = KEEP_ALIVE_MS;
    this.#sweeper = setInterval(() => this.sweep(), 1000);
    this.#sweeper.unref();
  }

  /**
   * The frontend URL: of the request being handled (Keycloak's hostname v2: `--hostname`, else the forwarded
   * headers when trusted, else `http://localhost:<port>`), or the configured one outside a request.
   */
  get baseUrl(): string {
    return currentFrontendOrigin() ?? this.#frontend.hostname?.origin ?? this.#listenOrigin;
  }

  async listen(port: number, host?: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => resolve());
    });
    const address = this.#server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    this.#listenOrigin = `http://localhost:${actual}`;
    return actual;
  }

  async addRealm(realm: Realm): Promise<RealmRuntime> {
    const runtime = await RealmRuntime.create(realm, () => this.baseUrl, createProvider, this.#warn);
    this.realms.set(realm.name, runtime);
    return runtime;
  }

  removeRealm(name: string): boolean {
    return this.realms.delete(name);
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /**
   * Requests that arrive before `until` settles wait for it: the port opens before the realms are added (their
   * issuer needs the port), and a client that polls the port must not meet "Realm does not exist" meanwhile.
   */
  holdRequestsUntil(until: Promise<void>): void {
    this.#held = until;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.#held;
    const origin = frontendOrigin(req, this.#listenOrigin, this.#frontend);
    // oidc-provider builds its redirects from these (koa `proxy`): only the frontend origin may reach it.
    for (const name of FORWARDED) delete req.headers[name];
    if (origin !== this.#listenOrigin) {
      const { protocol, host } = new URL(origin);
      Object.assign(req.headers, { 'x-forwarded-proto': protocol.slice(0, -1), 'x-forwarded-host': host });
    }
    return withFrontendOrigin(origin, () => this.#route(req, res));
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    if (url.pathname.startsWith('/admin/')) return handleAdmin(this, req, res, url);
    const match = /^\/realms\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!match) return this.#home(url, res);
    const runtime = this.realms.get(decodeURIComponent(match[1] ?? ''));
    if (!runtime) return sendJson(res, 404, { error: 'Realm does not exist' });
    if (!runtime.realm.enabled) return refuseDisabledRealm(runtime, req, res);
    const rest = match[2] ?? '';
    const forward = (): void => {
      Object.assign(req, { originalUrl: req.url });
      req.url = `${rest || '/'}${url.search}`;
      this.#callback(runtime)(req, res);
    };
    for (const route of REALM_ROUTES) {
      const found = route.pattern.exec(rest);
      if (!found) continue;
      if (!route.methods.includes(req.method ?? 'GET')) {
        return sendJson(res, 405, { error: 'HTTP 405 Method Not Allowed' }, { Allow: route.methods.join(', ') });
      }
      return route.handler({ runtime, req, res, url, params: found.slice(1).map(String), forward });
    }
    forward();
  }

  /** Sweeps every realm: expired sessions, codes, abandoned logins (the clock is read at each call). */
  sweep(): void {
    this.realms.forEach((r) => r.sweep());
  }

  #callback(runtime: RealmRuntime): Callback {
    const { provider } = runtime;
    let callback = this.#callbacks.get(provider);
    if (!callback) {
      callback = provider.callback();
      this.#callbacks.set(provider, callback);
    }
    return callback;
  }

  #home(url: URL, res: ServerResponse): void {
    if (url.pathname !== '/') return sendJson(res, 404, { error: 'Resource not found' });
    const links = [...this.realms.keys()]
      .filter((n) => n !== 'master')
      .map((n) => `<li><a href="/realms/${encodeURIComponent(n)}/.well-known/openid-configuration">${escapeHtml(n)}</a></li>`)
      .join('');
    sendHtml(res, 200, layout({ name: 'Gatehouse dev IdP' }, 'Realms', `<ul>${links}</ul>`));
  }
}

/**
 * A realm with `enabled: false` answers nothing but refusals, as Keycloak: its pages show
 * "Realm not enabled", its token endpoint answers 403, bearer endpoints 401.
 */
function refuseDisabledRealm(runtime: RealmRuntime, req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (/\/(token|revoke|introspect)$/.test(path))
    return sendJson(res, 403, { error: 'access_denied', error_description: 'Realm not enabled' });
  if (/\/(userinfo|account)\/?$/.test(path)) return sendJson(res, 401, { error: 'invalid_token', error_description: 'Realm not enabled' });
  sendPage(res, 403, errorPage(runtime.realm, 'Realm not enabled'));
}
