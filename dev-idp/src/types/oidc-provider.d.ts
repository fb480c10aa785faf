/**
 * The part of oidc-provider 9's API the dev IdP uses. The package ships no types and
 * @types/oidc-provider would be one more dependency to keep in step; these few
 * declarations are checked against the calls we make.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = Record<string, unknown>;

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientInstance {
    clientId: string;
    redirectUris: string[];
    clientAuthMethod: string;
    grantTypeAllowed(type: string): boolean;
  }

  export interface SessionInstance {
    uid: string;
    id: string;
    accountId?: string;
    loginTs?: number;
    /** what the last interaction result's `login.acr` said (the dev IdP keeps the reached level here) */
    acr?: string;
    authorizations?: Record<string, { sid?: string; grantId?: string }>;
    grantIdFor(clientId: string): string | undefined;
  }

  export interface GrantInstance {
    jti: string;
    accountId?: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface TokenInstance {
    accountId?: string;
    clientId?: string;
    sessionUid?: string;
    sid?: string;
    scope?: string;
    authTime?: number;
  }

  export interface OidcContext {
    route?: string;
    client?: ClientInstance;
    session?: SessionInstance;
    params?: Record<string, unknown>;
    requestParamScopes?: Set<string>;
    result?: { consent?: { grantId?: string }; login?: { accountId: string; acr?: string } };
    provider: Provider;
  }

  export interface KoaContext {
    oidc: OidcContext;
    method: string;
    path: string;
    status: number;
    body: unknown;
    type: string;
    req: IncomingMessage;
    res: ServerResponse;
    set(name: string, value: string | string[]): void;
    set(fields: Readonly<Record<string, string>>): void;
    response: { get(name: string): unknown };
    get(name: string): string;
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string; uid?: string; acr?: string };
    grantId?: string;
  }

  export interface JwtCustomization {
    header: Record<string, unknown>;
    payload: Record<string, unknown>;
  }

  export type Configuration = Record<string, unknown>;

  export interface GrantConstructor {
    new (init: { clientId: string; accountId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  }

  export interface SessionConstructor {
    prototype: {
      ensureClientContainer(
        this: SessionInstance & { sidFor(clientId: string, value?: string): string | undefined },
        clientId: string,
      ): void;
    };
  }

  export interface ClientConstructor {
    prototype: { redirectUriAllowed(this: ClientInstance, value: string): boolean };
  }

  /** A named condition of a prompt: returns whether the prompt is needed. */
  export class Check {
    constructor(reason: string, description: string, error: string, check: (ctx: KoaContext) => boolean | Promise<boolean>);
    static readonly REQUEST_PROMPT: true;
    static readonly NO_NEED_TO_PROMPT: false;
  }

  export interface Prompt {
    name: string;
    checks: Check[] & { add(check: Check): void; remove(reason: string): void };
  }

  export const interactionPolicy: {
    Check: typeof Check;
    base(): Prompt[] & { get(name: string): Prompt | undefined };
  };

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    proxy: boolean;
    readonly Grant: GrantConstructor;
    readonly Session: SessionConstructor;
    readonly Client: ClientConstructor;
    readonly IdToken: {
      prototype: {
        available: Record<string, unknown>;
        issue(this: { available: Record<string, unknown> }, ...args: unknown[]): Promise<string>;
      };
    };
    readonly RefreshToken: { find(value: string, options?: { ignoreExpiration?: boolean }): Promise<TokenInstance | undefined> };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
