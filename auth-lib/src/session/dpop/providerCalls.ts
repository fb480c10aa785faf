import { boundKeyOf, type Dpop } from './dpop';

/**
 * keycloak-js's own calls to the provider, made with proofs of possession (decisions/0112).
 *
 * keycloak-js has no DPoP (keycloak-js#8) and no hook to add a header: its code exchange, refreshes, user-info and
 * account reads are `fetch` calls private to its module, made through the global `fetch`. So the session wraps the
 * global `fetch` once, and the wrapper touches only those calls, recognised by their exact address:
 *
 * - a `POST` to the realm's token endpoint gets a proof signed with the browser's key (the provider binds what it
 *   issues to the key, `cnf.jkt`; a `DPoP-Nonce` asked for is sent on a second try);
 * - a refresh of the page's own token asks for the page's scope (`pageScope`: the sign-in scopes without any API's),
 *   so the page's access token carries no API audience; the refresh token keeps the full grant, from which each API's
 *   token is downscoped;
 * - the code exchange is followed at once by such a refresh, and keycloak-js gets the narrow access token with the
 *   exchange's ID token (its `nonce` is what keycloak-js checks): the wide token of the exchange never reaches the page;
 * - a `GET` of user-info or the account API with `Authorization: bearer <bound token>` goes as `Authorization: DPoP`
 *   with a proof for that address and token (`ath`): the provider refuses a bound token sent as a bearer token.
 *
 * Everything else, and any request that already carries a `DPoP` header (auth-lib's own downscoped refreshes), passes
 * through untouched.
 */
export interface ProviderCalls {
  /** the realm's token endpoint */
  readonly token: string;
  /** user-info, and the account API's root (reads below it count too) */
  readonly userinfo: string;
  readonly account: string;
  readonly dpop: Dpop;
  /** the scope the page's own token is refreshed down to; null when the sign-in asked for no API scope */
  readonly pageScope: string | null;
}

/** The endpoints of a Keycloak realm that keycloak-js calls with tokens, as `withProviderProofs` compares addresses. */
export function providerEndpoints(url: string, realm: string): Pick<ProviderCalls, 'token' | 'userinfo' | 'account'> {
  const root = new URL(`${url.replace(/\/+$/, '')}/realms/${encodeURIComponent(realm)}`);
  const at = (path: string) => `${root.origin}${root.pathname}/${path}`;
  return { token: at('protocol/openid-connect/token'), userinfo: at('protocol/openid-connect/userinfo'), account: at('account') };
}

/** The sign-in scopes without any API's, for the page's own token; null when there is nothing to leave out. */
export function pageScopeOf(scopes: readonly string[], apiScopes: readonly string[]): string | null {
  const apis = new Set(apiScopes);
  const own = scopes.filter((scope) => !apis.has(scope));
  if (own.length === scopes.length) return null;
  return ['openid', ...own.filter((scope) => scope !== 'openid')].join(' ');
}

/**
 * A wrapped call's address without query and fragment, and its method; null for a `Request` (keycloak-js passes an
 * address) or an address that is no URL. Relative addresses resolve against the page, as `fetch` resolves them.
 */
function describe(input: RequestInfo | URL, init: RequestInit | undefined): { url: string; method: string } | null {
  if (typeof input !== 'string' && !(input instanceof URL)) return null;
  let url: URL;
  try {
    url = new URL(String(input), globalThis.location?.href);
  } catch {
    return null; // fetch itself says what is wrong with it
  }
  return { url: `${url.origin}${url.pathname}`, method: (init?.method ?? 'GET').toUpperCase() };
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

async function tokenCall(send: typeof fetch, calls: ProviderCalls, url: string, init: RequestInit): Promise<Response> {
  if (!(init.body instanceof URLSearchParams)) return calls.dpop.send(send, url, { ...init, method: 'POST' });
  const body = new URLSearchParams(init.body);
  const grant = body.get('grant_type');
  const { pageScope } = calls;
  if (grant === 'refresh_token' && pageScope !== null && !body.has('scope')) body.set('scope', pageScope);
  const response = await calls.dpop.send(send, url, { ...init, method: 'POST', body });
  if (grant !== 'authorization_code' || pageScope === null || !response.ok) return response;
  const exchanged = (await response.json()) as Record<string, unknown>;
  if (typeof exchanged.refresh_token !== 'string') return json(exchanged);
  const narrow = await calls.dpop.send(send, url, {
    ...init,
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: exchanged.refresh_token,
      client_id: body.get('client_id') ?? '',
      scope: pageScope,
    }),
  });
  if (!narrow.ok) return narrow; // the sign-in fails as a refused exchange does: no wide token reaches the page
  const page = (await narrow.json()) as Record<string, unknown>;
  return json({ ...page, id_token: exchanged.id_token ?? page.id_token });
}

function isProviderRead(calls: ProviderCalls, url: string): boolean {
  return url === calls.userinfo || url === calls.account || url.startsWith(`${calls.account}/`);
}

/** `send` with keycloak-js's calls to the providers `providers` lists made as `ProviderCalls` says. */
export function withProviderProofs(send: typeof fetch, providers: () => Iterable<ProviderCalls>): typeof fetch {
  return async (input, init) => {
    const call = describe(input, init);
    const calls = call && [...providers()].find((each) => call.url === each.token || isProviderRead(each, call.url));
    // every other call of the page (most of them) passes at the cost of one URL parse
    if (!call || !calls) return send(input, init);
    const headers = new Headers(init?.headers);
    if (headers.has('DPoP')) return send(input, init); // auth-lib's own downscoped refresh, with its proof
    if (call.url === calls.token) {
      return call.method === 'POST' ? tokenCall(send, calls, String(input), init ?? {}) : send(input, init);
    }
    if (call.method === 'GET') {
      const [scheme, token] = (headers.get('Authorization') ?? '').split(' ');
      if (scheme?.toLowerCase() === 'bearer' && token && boundKeyOf(token) !== null) {
        headers.delete('Authorization');
        return calls.dpop.send(send, String(input), { ...init, method: 'GET', headers }, token);
      }
    }
    return send(input, init);
  };
}

const registered = new Map<string, ProviderCalls>();
let installed = false;

/**
 * Makes keycloak-js's calls to this provider with proofs: wraps the global `fetch` the first time (once a page), and
 * registers this realm's endpoints (a later registration of the same token endpoint replaces the earlier one).
 */
export function installProviderProofs(calls: ProviderCalls, target: { fetch: typeof fetch } = globalThis): void {
  registered.set(calls.token, calls);
  if (installed) return;
  installed = true;
  target.fetch = withProviderProofs(target.fetch.bind(target), () => registered.values());
}
