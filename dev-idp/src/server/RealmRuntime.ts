import { randomBytes } from 'node:crypto';

import type Provider from 'oidc-provider';

import type { LoaMap } from '../sessions/acr.js';

import { BruteForceProtector } from '../sessions/bruteForce.js';
import { DPOP_REPLAY_WINDOW } from '../tokens/dpop.js';
import { createRealmKeys } from '../tokens/keys.js';
import type { RealmKeys } from '../tokens/keys.js';
import { MemoryStore } from '../provider/MemoryStore.js';
import type { Client, Realm, User } from '../realm/model.js';
import { OneTimeCodes } from '../sessions/OneTimeCodes.js';
import { RevokedTokens } from '../tokens/RevokedTokens.js';
import { SessionRegistry } from '../sessions/sessions.js';
import { backchannelTargets } from '../sessions/backchannelLogout.js';
import type { LogoutKind } from '../sessions/backchannelLogout.js';
import { postLogoutTokens } from '../tokens/postLogoutToken.js';

const MAX_FRONTENDS = 16;

/** Makes the realm's oidc-provider for one issuer (provider/createProvider.ts; injected, so this module does not import it). */
export type ProviderFactory = (runtime: RealmRuntime, issuer: string) => Provider;

/**
 * One realm being served: its configuration (mutable through the admin API), signing key,
 * SSO sessions and the oidc-provider instance mounted at `/realms/{realm}`.
 */
export class RealmRuntime {
  readonly realm: Realm;
  /** `/realms/{realm}` */
  readonly path: string;
  readonly keys: RealmKeys;
  /** Signs oidc-provider's cookies; one per realm, so every frontend origin's provider reads the others' cookies. */
  readonly cookieKey = randomBytes(32).toString('base64url');
  readonly store = new MemoryStore();
  readonly revoked = new RevokedTokens();
  /** Codes of the logout confirmations shown, each bound to the browser it was shown to (Keycloak: its logout session). */
  /** Failed sign-ins and lockouts (Keycloak's brute-force detection; off unless the admin API turns it on). */
  readonly bruteForce = new BruteForceProtector();
  readonly logoutConfirmations = new OneTimeCodes(1800);
  /** `jti`s (with `htu`) of the DPoP proofs accepted, so none is replayed while it could still be active (as Keycloak). */
  readonly dpopProofs = new OneTimeCodes(DPOP_REPLAY_WINDOW);
  readonly sessions: SessionRegistry;
  readonly #baseUrl: () => string;
  readonly #providers = new Map<string, Provider>();
  readonly #createProvider: ProviderFactory;
  readonly #warn: (line: string) => void;

  private constructor(realm: Realm, baseUrl: () => string, keys: RealmKeys, createProvider: ProviderFactory, warn: (line: string) => void) {
    this.realm = realm;
    this.#warn = warn;
    this.#createProvider = createProvider;
    this.path = `/realms/${encodeURIComponent(realm.name)}`;
    this.#baseUrl = baseUrl;
    this.keys = keys;
    this.sessions = new SessionRegistry(
      () => ({ idle: this.realm.ssoSessionIdleTimeout, max: this.realm.ssoSessionMaxLifespan }),
      (session) => {
        this.store.deleteWhere((p) => p.uid === session.id || p.sessionUid === session.id);
        for (const key of this.clientAcr.keys()) if (key.startsWith(`${session.id} `)) this.clientAcr.delete(key);
      },
    );
  }

  /** `{frontend URL}/realms/{realm}` of the request being handled: as Keycloak, the issuer follows the frontend URL. */
  get issuer(): string {
    return `${this.#baseUrl()}${this.path}`;
  }

  /**
   * The realm's oidc-provider for the request's frontend URL (its issuer is fixed at construction). Providers
   * of one realm share store, keys and cookie key, so they differ only in the URLs they build.
   */
  get provider(): Provider {
    const { issuer } = this;
    let provider = this.#providers.get(issuer);
    if (!provider) {
      provider = this.#createProvider(this, issuer);
      // *.localhost names are unbounded: keep the most recent few.
      if (this.#providers.size >= MAX_FRONTENDS) this.#providers.delete(this.#providers.keys().next().value ?? '');
      this.#providers.set(issuer, provider);
    }
    return provider;
  }

  /** `warn`: where a back-channel logout POST that failed is reported (one line each; nothing is retried). */
  static async create(
    realm: Realm,
    baseUrl: () => string,
    createProvider: ProviderFactory,
    warn: (line: string) => void = () => {},
  ): Promise<RealmRuntime> {
    return new RealmRuntime(realm, baseUrl, await createRealmKeys(), createProvider, warn);
  }

  /**
   * Logs the SSO session out (a logout, not an expiry): it ends at once, then each of its clients that takes
   * back-channel logout is posted a logout token naming its user (`sub`) and it (`sid`), as Keycloak 26.7.3 does
   * (decisions/0118; which clients: sessions/backchannelLogout.ts). The POSTs are not awaited: a receiver that is
   * slow, down or answers an error neither delays nor fails the logout, and is reported through `warn` only.
   * Returns the POSTs' completion, for the caller that wants to wait (the logout itself never does).
   */
  logOut(id: string, kind: LogoutKind): Promise<void> {
    const session = this.sessions.active(id);
    // an id that is not active is still remembered as ended, so no late request revives it
    this.sessions.end(id);
    if (!session) return Promise.resolve();
    const targets = backchannelTargets(session, (clientId) => this.client(clientId), kind);
    if (targets.length === 0) return Promise.resolve();
    // each token's issuer is the one its client signed in at (the target's); the realm's own is the fallback
    const realm = { issuer: this.issuer, keys: this.keys };
    return postLogoutTokens(realm, targets, { sub: session.userId, sid: session.id }, (target, reason) =>
      this.#warn(
        `realm ${this.realm.name}: back-channel logout of client ${target.clientId} to ${target.url} failed (${reasonText(reason)}); not retried`,
      ),
    ).catch(() => {});
  }

  /** Drops what has expired: SSO sessions, then codes, tokens and abandoned logins (and their step-ups). */
  sweep(): void {
    this.sessions.sweep();
    this.store.sweep();
    this.revoked.sweep();
    this.logoutConfirmations.sweep();
    this.bruteForce.sweep();
    this.dpopProofs.sweep();
    for (const uid of this.stepUps.keys()) if (!this.store.get('Interaction', uid)) this.stepUps.delete(uid);
  }

  /**
   * The `acr` each client's session carries, set at each authorization (Keycloak keeps it in the client
   * session's notes): key `${sid} ${clientId}`.
   */
  readonly clientAcr = new Map<string, string>();

  /** Step-ups under way, by interaction uid: whose password is asked again and the level reached so far. */
  readonly stepUps = new Map<string, { userId: string; level: number }>();

  /** The level names for a client: its own `acr.loa.map`, else the realm's (as Keycloak). */
  loaMap(client: Client | undefined): LoaMap {
    return client && Object.keys(client.acrLoaMap).length > 0 ? client.acrLoaMap : this.realm.acrLoaMap;
  }

  client(clientId: string | undefined): Client | undefined {
    return this.realm.clients.find((c) => c.clientId === clientId);
  }

  user(id: string | undefined): User | undefined {
    return this.realm.users.find((u) => u.id === id);
  }

  /** Login accepts the username or the e-mail address (case-insensitive), as Keycloak's form does. */
  userByLogin(login: string): User | undefined {
    const wanted = login.trim().toLowerCase();
    return this.realm.users.find((u) => u.username === wanted) ?? this.realm.users.find((u) => u.email === wanted);
  }
}

function reasonText(reason: unknown): string {
  if (!(reason instanceof Error)) return String(reason);
  const cause = (reason as { cause?: unknown }).cause;
  return cause instanceof Error ? `${reason.message}: ${cause.message}` : reason.message;
}
