/**
 * A stand-in for a keycloak-js instance, used only by this package's unit tests. It follows
 * keycloak-js 26's observable behaviour where the session depends on it: `updateToken` returns
 * false without a request while the token is fresh, clears tokens (onAuthLogout, then
 * onAuthRefreshError) only on HTTP 400, and `init` can be held open like a silent frame that never answers.
 */
import type { KeycloakInitOptions, KeycloakLike } from '../session/keycloak/keycloak';
import { FAKE_CLIENT, FAKE_ISSUER, jwt } from './fakeTokens';
import { FAKE_SIGNATURE } from './fakeVerifier';

export type RefreshOutcome = 'ok' | 'network-error' | 'refused' | 'hang';

export interface FakeUser {
  sub: string;
  preferred_username: string;
  name?: string;
  email?: string;
  realmRoles?: string[];
  clientRoles?: Record<string, string[]>;
}

export const ALICE: FakeUser = {
  sub: 'id-alice',
  preferred_username: 'alice',
  name: 'Alice Anders',
  email: 'alice@example.com',
  realmRoles: ['user', 'admin'],
  clientRoles: { reports: ['viewer'] },
};

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The provider's side of one browser's session, which its tabs share (the SSO cookie): ended by a logout in any tab. */
export interface FakeProvider {
  ended: boolean;
}

/** What the fake's account endpoint answers for alice, unless a test changes `account`. */
export const ALICE_ACCOUNT = {
  id: 'id-alice',
  username: 'alice',
  firstName: 'Alice',
  lastName: 'Anders',
  email: 'alice@example.com',
  emailVerified: true,
} as const;

export class FakeKeycloak implements KeycloakLike {
  /** the provider this instance talks to, shared by the tabs of one `browser()`; none: only `*Outcome` decide */
  provider: FakeProvider | null = null;
  authenticated = false;
  token?: string;
  tokenParsed?: Record<string, unknown>;
  idTokenParsed?: Record<string, unknown>;
  refreshToken?: string;
  refreshTokenParsed?: Record<string, unknown>;
  idToken?: string;
  subject?: string;
  realmAccess?: { roles: string[] };
  resourceAccess?: Record<string, { roles: string[] }>;
  timeSkew: number | null = 0;
  sessionId?: string;
  onAuthRefreshSuccess?: () => void;
  onAuthRefreshError?: () => void;
  onAuthLogout?: () => void;

  /** what the next `init()` does: sign in as this user, stay anonymous, fail, or never answer */
  initOutcome: { signedInAs: FakeUser } | 'anonymous' | 'hang' | { fails: unknown } = { signedInAs: ALICE };
  refreshOutcome: RefreshOutcome = 'ok';
  /**
   * how `init()` without onLoad (a seeded tab's) ends: `unchanged` resolves, `changed` drops the tokens it was
   * given meanwhile, `error` rejects, `hang` stays open until the test settles `pendingInit`
   */
  frameAnswer: 'unchanged' | 'changed' | 'error' | 'hang' = 'unchanged';
  tokenLifespanSeconds = 60;
  /** the `acr` claim the provider puts in both tokens (Keycloak: "1" for a password sign-in without a loa map) */
  acr = '1';
  /** seconds the refresh token lives (the SSO session's idle timeout) */
  refreshLifespanSeconds = 1800;
  initCalls: KeycloakInitOptions[] = [];
  updateTokenCalls: number[] = [];
  /** refreshes that went to the (pretend) network */
  networkRefreshes = 0;
  loginCalls: unknown[] = [];
  logoutCalls: unknown[] = [];
  userInfo: Record<string, unknown> = { sub: 'id-alice', preferred_username: 'alice', given_name: 'Alice', email_verified: true };
  account: Record<string, unknown> = { ...ALICE_ACCOUNT };
  private user: FakeUser | null = null;
  private tokenCounter = 0;
  /** settles a held `init()` or `updateToken()` from a test */
  pendingInit = deferred<boolean>();

  init = async (options?: KeycloakInitOptions): Promise<boolean> => {
    this.initCalls.push(options ?? {});
    if (this.initCalls.length > 1) throw new Error("A 'Keycloak' instance can only be initialized once.");
    if (!options?.onLoad && !options?.token) {
      // keycloak-js without onLoad or tokens only readies the instance (a seeded tab, which then takes another
      // tab's tokens); `frameAnswer` stands for how that init ends here: `hang` holds it, `error` fails it
      if (this.frameAnswer === 'hang') return this.pendingInit.promise;
      if (this.frameAnswer === 'error') throw new Error('Error while initialising');
      if (this.frameAnswer === 'changed') this.clearToken();
      return this.authenticated;
    }
    const outcome = this.initOutcome;
    if (outcome === 'hang') return this.pendingInit.promise;
    if (outcome === 'anonymous') return false;
    if ('fails' in outcome) throw outcome.fails;
    this.signIn(outcome.signedInAs);
    return true;
  };

  signIn(user: FakeUser): void {
    this.user = user;
    this.issueTokens();
  }

  private issueTokens(): void {
    const user = this.user;
    if (!user) return;
    const now = Math.floor(Date.now() / 1000);
    this.tokenCounter += 1;
    this.tokenParsed = {
      iss: FAKE_ISSUER,
      azp: FAKE_CLIENT,
      sub: user.sub,
      preferred_username: user.preferred_username,
      name: user.name,
      email: user.email,
      sid: 'sid-1',
      acr: this.acr,
      iat: now,
      exp: now + this.tokenLifespanSeconds,
      realm_access: { roles: user.realmRoles ?? [] },
      resource_access: Object.fromEntries(Object.entries(user.clientRoles ?? {}).map(([c, roles]) => [c, { roles }])),
    };
    this.idTokenParsed = { sub: user.sub, auth_time: now - 10, sid: 'sid-1', acr: this.acr };
    this.token = jwt(this.tokenParsed, `${FAKE_SIGNATURE}${this.tokenCounter}`);
    this.refreshTokenParsed = { typ: 'Refresh', sid: 'sid-1', iat: now, exp: now + this.refreshLifespanSeconds };
    this.refreshToken = jwt(this.refreshTokenParsed, `refresh${this.tokenCounter}`);
    this.authenticated = true;
  }

  isTokenExpired = (minValidity?: number): boolean => {
    const exp = this.tokenParsed?.exp;
    if (typeof exp !== 'number') return true;
    return exp - Math.ceil(Date.now() / 1000) - (minValidity ?? 0) < 0;
  };

  updateToken = async (minValidity?: number): Promise<boolean> => {
    this.updateTokenCalls.push(minValidity ?? 5);
    if (!this.refreshToken) throw new Error('Unable to update token, no refresh token available.');
    if (minValidity !== -1 && !this.isTokenExpired(minValidity || 5)) return false;
    this.networkRefreshes += 1;
    await Promise.resolve();
    switch (this.provider?.ended ? 'refused' : this.refreshOutcome) {
      case 'ok':
        this.issueTokens();
        this.onAuthRefreshSuccess?.();
        return true;
      case 'network-error':
        this.onAuthRefreshError?.();
        throw new TypeError('Failed to fetch');
      case 'refused':
        this.clearToken();
        this.onAuthRefreshError?.();
        throw new Error('Server responded with an invalid status.');
      case 'hang':
        return new Promise<boolean>(() => undefined);
    }
  };

  clearToken = (): void => {
    if (!this.token) return;
    this.token = undefined;
    this.tokenParsed = undefined;
    this.idTokenParsed = undefined;
    this.refreshToken = undefined;
    this.refreshTokenParsed = undefined;
    this.authenticated = false;
    this.onAuthLogout?.();
  };

  /** what keycloak-js does when the login-status frame answers `changed` */
  frameReportsChanged(): void {
    this.clearToken();
  }

  login = async (options?: unknown): Promise<void> => {
    this.loginCalls.push(options);
  };

  logout = async (options?: unknown): Promise<void> => {
    this.logoutCalls.push(options);
    if (this.provider) this.provider.ended = true;
  };

  /** what the user-info endpoint answers: the user, 401 (the session ended at the provider), or nothing */
  userInfoOutcome: 'ok' | 'ended' | 'network-error' = 'ok';
  /** how long the user-info endpoint takes to answer (a slow or failing-over provider) */
  userInfoDelayMs = 0;
  userInfoCalls = 0;

  loadUserInfo = async () => {
    this.userInfoCalls += 1;
    await (this.userInfoDelayMs > 0 ? new Promise((resolve) => setTimeout(resolve, this.userInfoDelayMs)) : Promise.resolve());
    if (this.userInfoOutcome === 'ended' || this.provider?.ended) {
      // keycloak-js's NetworkError carries the response
      throw Object.assign(new Error('Server responded with an invalid status.'), { response: { status: 401 } });
    }
    if (this.userInfoOutcome === 'network-error') throw new TypeError('Failed to fetch');
    return this.userInfo as never;
  };
  loadUserProfile = async () => this.account as never;
}

/** A factory that records every instance it builds. */
export function fakeKeycloakFactory(configure: (kc: FakeKeycloak) => void = () => undefined) {
  const instances: FakeKeycloak[] = [];
  const factory = jest.fn(() => {
    const kc = new FakeKeycloak();
    configure(kc);
    instances.push(kc);
    return kc;
  });
  return { factory, instances };
}

/** An in-memory BroadcastChannel stand-in: channels with the same name deliver to each other. */
export function fakeTabBus() {
  const channels: { name: string; listener: ((data: unknown) => void) | null; closed: boolean }[] = [];
  const messages: unknown[] = [];
  const factory = (name: string) => {
    const self: (typeof channels)[number] = { name, listener: null, closed: false };
    channels.push(self);
    return {
      postMessage: (message: unknown) => {
        messages.push(message);
        const copy: unknown = JSON.parse(JSON.stringify(message));
        for (const other of channels) if (other !== self && other.name === name && !other.closed) other.listener?.(copy);
      },
      onMessage: (listener: (data: unknown) => void) => {
        self.listener = listener;
      },
      close: () => {
        self.closed = true;
      },
    };
  };
  return { factory, channels, messages };
}

/**
 * An in-memory Web Locks stand-in for tabs of one test: a lock is granted to one holder at a time, in
 * request order; `closeTab(i)` releases what the i-th requester holds, as closing its tab would.
 */
export function fakeTabLocks() {
  const queue: { name: string; grant: () => void; held: boolean; release?: () => void }[] = [];
  const grantNext = (name: string) => {
    if (queue.some((entry) => entry.name === name && entry.held)) return;
    queue.find((entry) => entry.name === name)?.grant();
  };
  const locks = {
    request: (name: string, callback: () => Promise<void>) =>
      new Promise<void>((resolve) => {
        const entry: (typeof queue)[number] = {
          name,
          held: false,
          grant: () => {
            entry.held = true;
            const done = () => {
              queue.splice(queue.indexOf(entry), 1);
              resolve();
              grantNext(name);
            };
            entry.release = done;
            void callback().then(done);
          },
        };
        queue.push(entry);
        grantNext(name);
      }),
    query: async () => ({ held: queue.filter((entry) => entry.held).map(({ name }) => ({ name })) }),
  };
  return { locks, holders: () => queue.filter((e) => e.held).length, releaseHeld: () => queue.find((e) => e.held)?.release?.() };
}
