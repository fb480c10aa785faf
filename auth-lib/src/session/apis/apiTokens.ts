import { AuthError } from '../../errors';
import type { ApiBinding, TokenOptions } from '../../types';
import type { ResolvedConfig } from '../config';
import type { KeycloakLike } from '../keycloak/keycloak';
import { describeError } from '../util/scrub';
import { decodeClaims, expiryOf, ownSkew, sessionMismatch, type TokenSet } from '../tokens/tokenSet';
import type { TokenVerifier } from '../tokens/tokenVerifier';
import { boundKeyOf, type Dpop } from '../dpop/dpop';
import { withTimeout } from '../util/withTimeout';

/** What the API tokens need from their session. */
export interface ApiTokenHost {
  readonly config: ResolvedConfig;
  keycloak(): KeycloakLike | null;
  isSignedIn(): boolean;
  /** whether this tab makes the provider calls (it leads, or there are no other tabs) */
  isLeader(): boolean;
  /** the session's own token, refreshed when needed: makes sure the session lives before a downscoped refresh */
  sessionToken(): Promise<string>;
  /** this tab holds no refresh token (it was seeded): it signs in on its own first (decisions/0053) */
  signInAgain(): Promise<unknown>;
  /** runs `call` after every other refresh of this tab has finished (under rotation each one spends the refresh token) */
  serial<T>(call: () => Promise<T>): Promise<T>;
  /** posts a message to the other tabs (the tab coordinator's channel) */
  send(message: { type: string } & Record<string, unknown>): void;
  /**
   * A downscoped refresh replaced the refresh token: the provider's session lives longer (its idle lifespan counts
   * from this refresh), so the session's deadline moves, in this tab and in the others.
   */
  refreshTokenRenewed(): void;
  readonly verify: TokenVerifier;
  /** a message from another tab was refused (it names why); nothing changes */
  refused(reason: string): void;
  readonly fetch?: typeof fetch;
  /** this browser's DPoP key: every downscoped refresh carries a proof, so each API token is bound to it (decisions/0110) */
  readonly dpop: Dpop;
}

interface ApiToken {
  readonly token: string;
  readonly audiences: readonly string[];
  /** epoch ms on this clock */
  readonly expiresAt: number;
}

interface Waiter {
  readonly had: string | null;
  readonly resolve: (token: string) => void;
  readonly reject: (error: unknown) => void;
}

function audiencesOf(claims: Record<string, unknown> | null): string[] {
  const aud = claims?.aud;
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((value): value is string => typeof value === 'string') : [];
}

/**
 * Access tokens for one API each (decisions/0054): a refresh of the session's refresh token with `scope` set to
 * the API's scope, which Keycloak (24+) answers with a token limited to that scope, whose audience mapper makes
 * the API its only audience. One refresh per API at a time across the tabs (the leading tab, which holds the
 * refresh token, makes it and shares the result), cached in memory until under `minValidity`.
 */
export class ApiTokens {
  private readonly cache = new Map<string, ApiToken>();
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** the APIs this tab's own views asked for, by scope (what it serves and takes when the session names no registry) */
  private readonly bound = new Map<string, ApiBinding>();

  constructor(private readonly host: ApiTokenHost) {}

  /**
   * The API a scope stands for: the registry's (config.apis, which the shell passes), or, for a session given no
   * registry, the one this tab's own views bound. Null: no API of this page, so nothing is served or taken for it.
   */
  private apiOf(scope: string): Pick<ApiBinding, 'scope' | 'audience'> | null {
    const { apis } = this.host.config;
    if (apis) return apis.find((api) => api.scope === scope) ?? null;
    return this.bound.get(scope) ?? null;
  }

  async getToken(api: ApiBinding, options: TokenOptions = {}): Promise<string> {
    if (!this.host.isSignedIn()) {
      throw new AuthError(
        'not-authenticated',
        `No one is signed in, so there is no token for ${api.audience}. Call session.login() to sign in.`,
      );
    }
    if (!this.bound.has(api.scope)) this.bound.set(api.scope, api);
    const cached = this.cache.get(api.scope);
    if (!options.forceRefresh && cached && this.usable(cached, api)) return cached.token;
    return this.flight(api, options.forceRefresh === true, cached?.token ?? null);
  }

  /** One request per API (and forced or not) at a time, whoever asks: this tab's views or another tab's. */
  private flight(api: ApiBinding, forced: boolean, had: string | null): Promise<string> {
    const key = `${api.scope}${forced ? ' (forced)' : ''}`;
    let flight = this.inFlight.get(key);
    if (!flight) {
      flight = (this.host.isLeader() ? this.downscope(api) : this.askLeader(api, had)).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, flight);
    }
    return flight;
  }

  /** A message of another tab about API tokens (`api-token`, `api-token-request`, `api-token-failed`). */
  receive(message: { type: string } & Record<string, unknown>): void {
    const scope = typeof message.scope === 'string' ? message.scope : null;
    if (scope === null) return;
    if (message.type === 'api-token-request' && this.host.isLeader() && this.host.isSignedIn()) {
      this.serve(scope, message.audience, message.had);
    } else if (message.type === 'api-token' && typeof message.token === 'string') {
      // the message's `timeSkew` is not read: this tab's own clock decides (decisions/0108)
      void this.adopt(scope, message.token);
    } else if (message.type === 'api-token-failed') {
      const error = new AuthError(
        'idp-unreachable',
        `The leading tab could not get a token for scope "${scope}": ${String(message.reason)}`,
      );
      for (const waiter of this.takeWaiters(scope)) waiter.reject(error);
    }
  }

  /**
   * Another tab asks for an API's token: served only for an API the registry names, with the registry's audience
   * (not the message's), from the cache when this tab holds a usable one other than the asker's (posted, as a fresh
   * one would be), else by one downscoped refresh, which posts its token itself.
   */
  private serve(scope: string, audience: unknown, had: unknown): void {
    const known = this.apiOf(scope);
    if (!known) {
      const reason = `this page's registry names no API with scope "${scope}"`;
      this.host.refused(`api-token-request: ${reason}`);
      this.host.send({ type: 'api-token-failed', scope, reason }); // the asking tab hears it now, not after its wait
      return;
    }
    // no failure posted here: it would fail the requests of the tabs that ask for this API rightly
    if (known.audience !== audience)
      return this.host.refused(`api-token-request: scope "${scope}" is not for audience "${String(audience)}"`);
    const api = { scope, audience: known.audience, url: '' };
    const cached = this.cache.get(scope);
    if (cached && cached.token !== had && this.usable(cached, api)) {
      this.host.send({ type: 'api-token', scope, token: cached.token, timeSkew: ownSkew(this.host.keycloak()) });
      return;
    }
    this.flight(api, false, null).catch((error: unknown) =>
      this.host.send({ type: 'api-token-failed', scope, reason: describeError(error) }),
    );
  }

  /** Forgets every API token (the session ended or changed). */
  clear(): void {
    this.cache.clear();
    for (const scope of [...this.waiters.keys()]) {
      for (const waiter of this.takeWaiters(scope)) waiter.reject(new AuthError('not-authenticated', 'The session ended.'));
    }
  }

  private usable(token: ApiToken, api: Pick<ApiBinding, 'audience'>): boolean {
    return token.audiences.includes(api.audience) && token.expiresAt - this.host.config.minValidity * 1000 > Date.now();
  }

  private async downscope(api: ApiBinding): Promise<string> {
    await this.host.sessionToken();
    if (!this.host.keycloak()?.refreshToken) await this.host.signInAgain();
    return this.host.serial(async () => {
      const kc = this.host.keycloak();
      if (!kc?.refreshToken) throw new AuthError('not-authenticated', 'The session ended: there is no refresh token to ask with.');
      const { config } = this.host;
      const body = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: kc.refreshToken,
        client_id: config.clientId,
        scope: api.scope,
      });
      const send = this.host.fetch ?? globalThis.fetch.bind(globalThis);
      const unreachable = () =>
        new AuthError('idp-unreachable', `The identity provider at ${config.url} did not answer within ${config.timeout} ms.`);
      let response: Response;
      let answer: Record<string, unknown>;
      try {
        response = await withTimeout(
          this.host.dpop.send(send, `${config.url}/realms/${config.realm}/protocol/openid-connect/token`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body,
          }),
          config.timeout,
          unreachable,
        );
        answer = (await response.json()) as Record<string, unknown>;
      } catch (error) {
        throw error instanceof AuthError ? error : new AuthError('idp-unreachable', `${unreachable().message} (${describeError(error)})`);
      }
      if (!response.ok || typeof answer.access_token !== 'string') {
        throw new AuthError(
          'not-authenticated',
          `The identity provider refused a token for scope "${api.scope}" (HTTP ${response.status}: ${describeError(answer)}). ` +
            `Check that "${api.scope}" is a client scope of ${config.clientId} in realm ${config.realm}.`,
        );
      }
      // under refresh-token rotation the answer's refresh token (of the full grant) replaces the spent one; one bound to the
      // DPoP key replaces only one bound as well: keycloak-js, which refreshes the session's own, sends no proof (decisions/0110)
      if (typeof answer.refresh_token === 'string' && boundKeyOf(answer.refresh_token) === boundKeyOf(kc.refreshToken)) {
        kc.refreshToken = answer.refresh_token;
        kc.refreshTokenParsed = decodeClaims(answer.refresh_token) ?? {};
        this.host.refreshTokenRenewed();
      }
      const token = this.store(api.scope, answer.access_token, kc.timeSkew ?? 0);
      if (!token.audiences.includes(api.audience)) {
        throw new AuthError(
          'invalid-config',
          `The token for scope "${api.scope}" is not for ${api.audience} (its audience: ${token.audiences.join(', ') || 'none'}). ` +
            `Give the client scope "${api.scope}" an audience mapper for ${api.audience}, make it an optional client scope of ` +
            `${config.clientId}, and sign in again (the session was signed in without it).`,
        );
      }
      this.host.send({ type: 'api-token', scope: api.scope, token: token.token, timeSkew: ownSkew(kc) });
      return token.token;
    });
  }

  private store(scope: string, jwt: string, timeSkew: number): ApiToken {
    const token = { token: jwt, audiences: audiencesOf(decodeClaims(jwt)), expiresAt: expiryOf(jwt, timeSkew) ?? 0 };
    this.cache.set(scope, token);
    for (const waiter of this.takeWaiters(scope)) if (waiter.had !== jwt) waiter.resolve(jwt);
    return token;
  }

  /**
   * Another tab's API token: taken when it is for an API of this page and its audience is that API's alone, unexpired
   * by this tab's own clock, signed by the provider, of this session, and newer than the one held (decisions/0108).
   */
  private async adopt(scope: string, jwt: string): Promise<void> {
    const kc = this.host.keycloak();
    if (!kc?.token || !this.host.isSignedIn()) return;
    const api = this.apiOf(scope);
    if (!api) return; // an API this page does not call: nothing to take
    const timeSkew = ownSkew(kc);
    const audiences = audiencesOf(decodeClaims(jwt));
    if (audiences.length !== 1 || audiences[0] !== api.audience) {
      return this.host.refused(`api-token for ${api.audience} with audience ${audiences.join(', ') || 'none'}`);
    }
    if ((expiryOf(jwt, timeSkew) ?? 0) <= Date.now()) return this.host.refused(`api-token for ${api.audience}: expired`);
    const bound = boundKeyOf(jwt);
    if (bound !== null && bound !== (await this.host.dpop.jkt().catch(() => null))) {
      return this.host.refused(`api-token for ${api.audience}: bound to a DPoP key that is not this browser's`);
    }
    const set: TokenSet = { token: jwt, idToken: null, timeSkew, refreshExpiresAt: null };
    const current: TokenSet = { token: kc.token, idToken: null, timeSkew, refreshExpiresAt: null };
    const problem = sessionMismatch(set, current) ?? (await this.host.verify(set));
    if (problem !== null) return this.host.refused(`api-token for ${api.audience}: ${problem}`);
    const held = this.cache.get(scope);
    if (held && (expiryOf(held.token, timeSkew) ?? 0) > (expiryOf(jwt, timeSkew) ?? 0)) return;
    this.store(scope, jwt, timeSkew);
  }

  private askLeader(api: ApiBinding, had: string | null): Promise<string> {
    return withTimeout(
      new Promise<string>((resolve, reject) => {
        const waiters = this.waiters.get(api.scope) ?? new Set<Waiter>();
        this.waiters.set(api.scope, waiters);
        waiters.add({ had, resolve, reject });
        this.host.send({ type: 'api-token-request', scope: api.scope, audience: api.audience, had });
      }),
      this.host.config.timeout,
      () => new AuthError('idp-unreachable', `The leading tab sent no token for ${api.audience} within ${this.host.config.timeout} ms.`),
    );
  }

  private takeWaiters(scope: string): Waiter[] {
    const waiters = [...(this.waiters.get(scope) ?? [])];
    this.waiters.delete(scope);
    return waiters;
  }
}
