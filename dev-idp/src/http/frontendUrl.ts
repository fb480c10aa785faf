import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';

/** Keycloak's `--proxy-headers` values; dev-idp reads `xforwarded` (`forwarded`, RFC 7239, is not read). */
export type ProxyHeaders = 'xforwarded';

/**
 * Where the dev IdP is reached from browsers, as Keycloak's hostname v2 options say it:
 * `hostname` (`--hostname`, a full URL) fixes issuer, endpoints and redirects; `proxyHeaders`
 * (`--proxy-headers xforwarded`) takes them from `X-Forwarded-Proto/Host/Port`, which are ignored otherwise.
 */
export interface FrontendOptions {
  hostname?: URL;
  proxyHeaders?: ProxyHeaders;
}

/** A bad `--hostname` / `--proxy-headers` value: the message says what to pass instead. */
export class FrontendOptionError extends Error {
  readonly code = 'DEV_IDP_FRONTEND_OPTION';
}

/**
 * A request whose `Host` (or forwarded host) is not one the dev IdP answers for. Without it, a
 * DNS-rebinding page could reach the admin API with the default administrator.
 */
export class HostRefusedError extends Error {
  readonly code = 'DEV_IDP_HOST_REFUSED';
}

/** Parses `--hostname` / `KC_HOSTNAME`: a full URL, `http(s)://name[:port]`, no path. */
export function parseHostname(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new FrontendOptionError(
      `--hostname "${value}" is not a URL: pass the full URL browsers use, e.g. --hostname https://sso.example.com (a bare host name is not supported by the dev IdP).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FrontendOptionError(`--hostname "${value}": the scheme must be http or https, e.g. https://sso.example.com.`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new FrontendOptionError(
      `--hostname "${value}": the dev IdP serves at the root only; pass scheme, host and port (${url.origin}) and proxy the root path to it.`,
    );
  }
  return url;
}

/** Parses `--proxy-headers` / `KC_PROXY_HEADERS`. */
export function parseProxyHeaders(value: string): ProxyHeaders {
  if (value === 'xforwarded') return value;
  const hint = value === 'forwarded' ? ' (the Forwarded header of RFC 7239 is not read by the dev IdP)' : '';
  throw new FrontendOptionError(`--proxy-headers "${value}": expected xforwarded${hint}; have the proxy send X-Forwarded-Proto/Host/Port.`);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Loopback names, as webpack-dev-server and Keycloak's dev mode accept them, plus the configured hostname. */
function acceptedHost(name: string, options: FrontendOptions): boolean {
  const host = name.toLowerCase();
  return LOOPBACK.has(host) || host.endsWith('.localhost') || host === options.hostname?.hostname;
}

/** `name[:port]` of a Host-like header value, or undefined when it is not one. */
function parseHost(value: string): URL | undefined {
  try {
    const url = new URL(`http://${value}`);
    return url.host.toLowerCase() === value.toLowerCase() || url.host === value.toLowerCase().replace(/:80$/, '') ? url : undefined;
  } catch {
    return undefined;
  }
}

function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

function refuseHost(header: string, value: string, options: FrontendOptions): never {
  const configured = options.hostname ? ` (configured: ${options.hostname.origin})` : '';
  throw new HostRefusedError(
    `${header} "${value}" is not a host the dev IdP answers for${configured}. It answers for localhost, *.localhost, ` +
      `127.0.0.1 and [::1]; to serve browsers at another name start it with --hostname https://${value} (KC_HOSTNAME).`,
  );
}

/**
 * The origin browsers reach the dev IdP at for this request (issuer, endpoints and redirects are built
 * on it), after refusing a Host or forwarded host it does not answer for.
 */
export function frontendOrigin(req: IncomingMessage, listenOrigin: string, options: FrontendOptions): string {
  const hostHeader = req.headers.host;
  if (hostHeader !== undefined) {
    const host = parseHost(hostHeader);
    if (!host || !acceptedHost(host.hostname, options)) refuseHost('Host', hostHeader, options);
  }
  let forwarded: string | undefined;
  if (options.proxyHeaders === 'xforwarded') forwarded = forwardedOrigin(req, options);
  return options.hostname?.origin ?? forwarded ?? listenOrigin;
}

/** `X-Forwarded-Proto/Host/Port` as an origin (first value of each list, as the proxy nearest the client set it). */
function forwardedOrigin(req: IncomingMessage, options: FrontendOptions): string | undefined {
  const proto = first(req.headers['x-forwarded-proto'])?.toLowerCase();
  const hostValue = first(req.headers['x-forwarded-host']);
  const port = first(req.headers['x-forwarded-port']);
  if (!proto && !hostValue && !port) return undefined;
  if (proto !== undefined && proto !== 'http' && proto !== 'https') {
    throw new HostRefusedError(`X-Forwarded-Proto "${proto}" is neither http nor https; fix the proxy's proxy_set_header.`);
  }
  const host = parseHost(hostValue ?? req.headers.host ?? 'localhost');
  if (!host) return refuseHost('X-Forwarded-Host', hostValue ?? '', options);
  if (!acceptedHost(host.hostname, options)) refuseHost('X-Forwarded-Host', hostValue ?? host.host, options);
  const url = new URL(`${proto ?? 'http'}://${host.hostname}`);
  if (port !== undefined && !/^\d{1,5}$/.test(port)) {
    throw new HostRefusedError(`X-Forwarded-Port "${port}" is not a port number; fix the proxy's proxy_set_header.`);
  }
  url.port = port ?? (hostValue !== undefined ? host.port : '');
  return url.origin;
}

const current = new AsyncLocalStorage<string>();

/** Runs `handle` with `origin` as the frontend origin of everything it builds (issuer, Location, cookies). */
export function withFrontendOrigin<T>(origin: string, handle: () => T): T {
  return current.run(origin, handle);
}

/** The frontend origin of the request being handled, if any. */
export function currentFrontendOrigin(): string | undefined {
  return current.getStore();
}

/** Keycloak sets its browser-session cookies `Secure; SameSite=None` over HTTPS, `SameSite=Lax` over plain http. */
export function cookieAttributes(): string {
  return currentFrontendOrigin()?.startsWith('https:') ? 'SameSite=None; Secure' : 'SameSite=Lax';
}
