// What the service's tests share: a realm of their own (an RSA key, its JWKS served on a free port), logout and access
// tokens signed with it (or with another key, or wrong on purpose), DPoP keys and proofs, and a reader of the stream.
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SignJWT, calculateJwkThumbprint, exportJWK } from 'jose';
import type { JWK, JWTPayload } from 'jose';

import { BACKCHANNEL_LOGOUT_EVENT } from '../../src/index.js';

export const CLIENT = 'gatehouse-shell';

export interface Realm {
  issuer: string;
  key: KeyObject;
  kid: string;
  close(): Promise<void>;
}

/** A realm's JWKS at `{issuer}/protocol/openid-connect/certs`, as Keycloak publishes it (RS256, `kid`). */
export async function startRealm(): Promise<Realm> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/protocol/openid-connect/certs')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/test`;
  return {
    issuer,
    key: privateKey,
    kid,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A logout token as Keycloak 26.7.3 makes it (decisions/0118), with `claims` merged in (undefined deletes a claim). */
export async function logoutToken(
  realm: Realm,
  claims: Record<string, unknown> = {},
  { key = realm.key, header = {} }: { key?: KeyObject; header?: Record<string, unknown> } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    exp: now + 120,
    iat: now,
    jti: randomUUID(),
    iss: realm.issuer,
    aud: CLIENT,
    sub: 'user-a',
    typ: 'Logout',
    sid: 'session-a',
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: 'RS256', typ: 'logout+jwt', kid: realm.kid, ...header }).sign(key);
}

export type DpopKey = { privateKey: KeyObject; jwk: JWK; jkt: string };

export async function dpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

/** The page's access token of session `sid` of user `sub`, bound to `key`, as Keycloak makes it (typ Bearer, azp). */
export async function accessToken(
  realm: Realm,
  {
    sid = 'session-a',
    sub = 'user-a',
    key,
    claims = {},
  }: { sid?: string; sub?: string; key?: DpopKey; claims?: Record<string, unknown> } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    typ: 'Bearer',
    azp: CLIENT,
    sid,
    sub,
    iss: realm.issuer,
    iat: now,
    exp: now + 300,
    ...(key ? { cnf: { jkt: key.jkt } } : {}),
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: realm.kid }).sign(realm.key);
}

export async function dpopProof(key: DpopKey, method: string, url: string, token: string): Promise<string> {
  return new SignJWT({ htm: method, htu: url, jti: randomUUID(), ath: createHash('sha256').update(token).digest('base64url') })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk })
    .setIssuedAt()
    .sign(key.privateKey);
}

/** POSTs a logout token as Keycloak does (a form with `logout_token`). */
export const postLogout = (url: string, token: string) =>
  fetch(`${url}/backchannel-logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ logout_token: token }),
  });

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** A subscription: the response, and its events as they come (`next()` waits for the next one, or rejects after `ms`). */
export class Subscription {
  readonly events: SseEvent[] = [];
  #waiters: Array<() => void> = [];
  #buffer = '';
  ended = false;
  readonly done: Promise<void>;

  constructor(readonly response: Response) {
    this.done = this.#read();
  }

  async #read(): Promise<void> {
    const reader = this.response.body?.getReader();
    if (!reader) return;
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.#buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = this.#buffer.indexOf('\n\n')) >= 0) {
          const block = this.#buffer.slice(0, cut);
          this.#buffer = this.#buffer.slice(cut + 2);
          const event: SseEvent = { event: 'message', data: '' };
          let any = false;
          for (const line of block.split('\n')) {
            const [name, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (name === 'event') {
              event.event = value;
              any = true;
            } else if (name === 'data') {
              event.data = value;
              any = true;
            } else if (name === 'id') {
              event.id = value;
            } else if (name === '' && line.startsWith(':')) {
              event.event = 'comment';
              event.data = value;
              any = true;
            }
          }
          if (any) this.events.push(event);
          this.#wake();
        }
      }
    } catch {
      // aborted
    }
    this.ended = true;
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** the first event named `name`, waiting up to `ms` for it */
  async next(name: string, ms = 3000): Promise<SseEvent> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.events.find((e) => e.event === name);
      if (found) return found;
      if (this.ended) throw new Error(`the stream ended without ${name}; it had ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${name} within ${ms} ms; it had ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }
}

/** Subscribes as a page does: `Authorization: DPoP <token>`, a proof for GET {publicUrl}/events. */
export async function subscribe(
  service: { url: string; publicUrl: string },
  token: string,
  key: DpopKey,
  { headers = {}, signal }: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Subscription> {
  const response = await fetch(`${service.url}/events`, {
    headers: {
      accept: 'text/event-stream',
      authorization: `DPoP ${token}`,
      dpop: await dpopProof(key, 'GET', `${service.publicUrl}/events`, token),
      ...headers,
    },
    signal,
  });
  return new Subscription(response);
}
