import { AuthError } from '../../errors';
import type { ApiBinding, Session } from '../../types';
import type { ApiTokens, ApiTokenHost } from './apiTokens';
import { apiView } from './apiView';
import { importOnce } from '../util/importOnce';

/**
 * The API tokens' code, loaded on demand: only a page with a remote that names an `api` (or a tab asked
 * for one by another tab) needs it, so the shell's first page goes without it.
 */
const loadApiTokens = importOnce(() => import(/* webpackChunkName: "api-tokens" */ './apiTokens'));

export interface ApiViewsHost extends Omit<ApiTokenHost, 'serial'> {
  readonly location: Pick<Location, 'origin' | 'href'>;
  readonly development?: boolean;
}

function checked(api: ApiBinding): ApiBinding {
  const problem = (field: string, what: string) =>
    new AuthError(
      'invalid-argument',
      `forApi(): api.${field} is ${JSON.stringify((api as unknown as Record<string, unknown>)[field])}: ${what}.`,
    );
  if (typeof api !== 'object' || api === null) throw new AuthError('invalid-argument', 'forApi() needs { url, audience, scope }.');
  let url: URL;
  try {
    url = new URL(api.url);
  } catch {
    throw problem('url', 'give the API\'s absolute http(s) address, e.g. "https://api.example.com/profile"');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw problem('url', 'only http: and https: addresses work');
  if (typeof api.audience !== 'string' || api.audience.trim() === '')
    throw problem('audience', 'name the audience the API requires, e.g. "profile-api"');
  if (typeof api.scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(api.scope)) {
    throw problem('scope', 'name the one client scope that grants the audience, e.g. "profile-api"');
  }
  return { url: url.href, audience: api.audience, scope: api.scope };
}

/**
 * The session's views per API and their tokens (decisions/0054): `forApi` returns the same view for the same
 * binding; `serial` runs the session's refreshes one after another (under refresh-token rotation each one
 * spends the refresh token, so a downscoped refresh and the session's own must never overlap).
 */
export class ApiViews {
  private tokens: ApiTokens | null = null;
  private readonly views = new Map<string, Session>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly session: Session,
    private readonly host: ApiViewsHost,
  ) {}

  /** The API tokens, their code loaded the first time (a failed load is asked for again by the next call). */
  private async apiTokens(): Promise<ApiTokens> {
    const { ApiTokens } = await loadApiTokens();
    this.tokens ??= new ApiTokens({ ...this.host, serial: (call) => this.serial(call) });
    return this.tokens;
  }

  forApi(input: ApiBinding): Session {
    const api = checked(input);
    const key = JSON.stringify([api.url, api.audience, api.scope]);
    let view = this.views.get(key);
    if (!view) {
      // the view's token will be asked for soon (its remote is about to mount): its code is requested now
      loadApiTokens().catch(() => undefined);
      view = apiView(this.session, api, {
        getToken: (binding, options) => this.apiTokens().then((tokens) => tokens.getToken(binding, options)),
        location: this.host.location,
        // a DPoP-bound token goes as `Authorization: DPoP` with a proof of this browser's key; a bearer one as before
        authorize: (token, method, url) => this.host.dpop.authorization(token, method, url),
        askedForNonce: (url, response) => this.host.dpop.askedForNonce(url, response),
        ...(this.host.fetch ? { fetch: this.host.fetch } : {}),
        ...(this.host.development === undefined ? {} : { development: this.host.development }),
      });
      this.views.set(key, view);
    }
    return view;
  }

  serial<T>(call: () => Promise<T>): Promise<T> {
    const next = this.queue.then(call, call);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Another tab's API message, in the order they came (one chain off the one load). */
  receive(message: { type: string } & Record<string, unknown>): void {
    this.apiTokens().then(
      (tokens) => tokens.receive(message),
      () => undefined, // without the code this tab cannot answer; the asking tab's wait ends in its timeout
    );
  }

  clear(): void {
    this.tokens?.clear();
  }
}
