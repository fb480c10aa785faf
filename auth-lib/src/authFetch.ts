import type { TokenOptions } from './types';

export interface AuthFetchDependencies {
  readonly getToken: (options?: TokenOptions) => Promise<string>;
  /** origins besides the page's own that may receive the token */
  readonly trustedOrigins: readonly string[];
  /** instead of the origin check: the addresses that may receive the token (an API view's: only under its URL) */
  readonly trusts?: (url: URL) => boolean;
  /** the development warning for an address `trusts` refuses */
  readonly untrusted?: (address: string) => string;
  /** the page's origin and address (relative request URLs resolve against `href` when there is no document) */
  readonly location: Pick<Location, 'origin' | 'href'>;
  /**
   * The base relative request URLs resolve against; defaults to `document.baseURI` at call time (what
   * `fetch` itself would use, so a `<base href>` in the page moves the check along with the request).
   */
  readonly baseUrl?: () => string;
  /** defaults to the global `fetch` at call time */
  readonly fetch?: typeof fetch;
  /** warn about untrusted origins; defaults to "not a production build" */
  readonly development?: boolean;
  readonly warn?: (message: string) => void;
  /**
   * The headers that carry `token` on one request; default `Authorization: Bearer <token>`. An API view's: for a
   * DPoP-bound token, `Authorization: DPoP <token>` and a fresh proof for this method and URL (decisions/0110).
   */
  readonly authorize?: (token: string, method: string, url: URL) => Promise<Record<string, string>>;
  /** sees every answer; true: the server asked for a DPoP nonce, so the request goes again once with the same token */
  readonly askedForNonce?: (url: URL, response: Response) => Promise<boolean>;
}

/** True unless the bundler declared a production build (webpack/esbuild replace `process.env.NODE_ENV`). */
export function isDevelopment(): boolean {
  try {
    return process.env.NODE_ENV !== 'production';
  } catch {
    // no bundler replacement and no `process` in the browser: assume production, stay quiet
    return false;
  }
}

function isRequest(input: RequestInfo | URL): input is Request {
  return typeof Request === 'function' && input instanceof Request;
}

function requestUrl(input: RequestInfo | URL, base: string): URL | null {
  const raw = isRequest(input) ? input.url : input instanceof URL ? input.href : String(input);
  try {
    return new URL(raw, base);
  } catch {
    return null;
  }
}

function documentBase(location: Pick<Location, 'href'>): string {
  return globalThis.document?.baseURI ?? location.href;
}

/**
 * Builds `fetch` with the session's bearer token. The token goes only to the page's origin and the
 * configured trusted origins, so a typo'd or third-party URL never receives it. A 401 means the
 * token was refused (revoked, rotated keys): refresh once, regardless of expiry, and retry once.
 *
 * The URL is resolved once, and the request goes to exactly the URL that was checked: the check never
 * resolves against one base while `fetch` resolves against another (an injected `<base href>` would
 * otherwise send the token to the base's origin).
 */
export function createAuthFetch(deps: AuthFetchDependencies): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  const warned = new Set<string>();
  const development = deps.development ?? isDevelopment();
  const warn = deps.warn ?? ((message: string) => console.warn(message));

  return async (input, init) => {
    const send = deps.fetch ?? globalThis.fetch.bind(globalThis);
    const url = requestUrl(input, deps.baseUrl ? deps.baseUrl() : documentBase(deps.location));
    const origin = url?.origin ?? null;
    const trusted =
      url !== null && (deps.trusts ? deps.trusts(url) : origin === deps.location.origin || deps.trustedOrigins.includes(origin ?? ''));

    if (url === null || !trusted) {
      const name = origin ?? String(input);
      if (development && !warned.has(name)) {
        warned.add(name);
        warn(
          deps.untrusted?.(url?.href ?? name) ??
            `authFetch: sending this request to ${name} without the access token, because ${name} is neither this page's origin ` +
              `nor in trustedOrigins. If that API should receive the token, add "${name}" to trustedOrigins in config.json.`,
        );
      }
      return send(input, init);
    }

    const method = (init?.method ?? (isRequest(input) ? input.method : 'GET')).toUpperCase();
    const carrying = async (token: string): Promise<Headers> => {
      const headers = new Headers(init?.headers ?? (isRequest(input) ? input.headers : undefined));
      const carried = deps.authorize ? await deps.authorize(token, method, url) : { Authorization: `Bearer ${token}` };
      for (const [name, value] of Object.entries(carried)) headers.set(name, value);
      return headers;
    };
    // a Request's body can be read once: send a copy so the retry still has it. A Request's URL is
    // absolute already; anything else goes out as the URL that was checked.
    const sendWith = async (token: string) =>
      send(isRequest(input) ? input.clone() : url.href, { ...init, headers: await carrying(token) });
    const attempt = async (token: string): Promise<Response> => {
      const response = await sendWith(token);
      // asked for a DPoP nonce: once more with the same token and a proof that carries it
      return deps.askedForNonce && (await deps.askedForNonce(url, response)) ? sendWith(token) : response;
    };

    const response = await attempt(await deps.getToken());
    if (response.status !== 401) return response;
    return attempt(await deps.getToken({ forceRefresh: true }));
  };
}
