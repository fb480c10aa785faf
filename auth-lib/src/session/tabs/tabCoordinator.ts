import type { ResolvedConfig } from '../config';
import type { KeycloakLike } from '../keycloak/keycloak';
import { channelName, type TabChannel, type TabChannelFactory } from './tabChannel';
import { leaderLockName, TabLeader, type TabLocks } from './tabLeader';
import type { TokenVerifier } from '../tokens/tokenVerifier';
import { USERINFO_MARGIN_S } from '../watch/providerCheck';
import { fingerprint, isTokenSet, readTokenSet, seedProblem, tokenExpired, tokenFields, type TokenSet } from '../tokens/tokenSet';

/** What the coordinator needs from its tab's session. */
export interface TabHost {
  readonly config: ResolvedConfig;
  keycloak(): KeycloakLike | null;
  isSignedIn(): boolean;
  /** another tab said the session ended and this tab is still asking the provider: it seeds no new tab meanwhile */
  inDoubt(): boolean;
  /** resolves once the session has left `loading` */
  settled(): Promise<unknown>;
  /** another tab sent its tokens (after a refresh, a sign-in, or as an answer); verified by the host before use */
  receiveTokens(set: TokenSet): Promise<void>;
  /** why another tab's tokens must not be used (their signatures do not verify against the provider's keys), or null */
  readonly verify: TokenVerifier;
  /** the clock skew this tab judges other tabs' tokens with: its own, bounded (`ownSkew`), never a message's */
  timeSkew(): number;
  /** a message from the channel was refused (it names why); nothing changes on screen */
  refused(reason: string): void;
  /**
   * This tab must refresh but holds no refresh token (it was seeded by a tab that has since closed): it signs
   * itself in again without a page load where the provider's frames allow, and resolves once it holds tokens of
   * its own (decisions/0053).
   */
  signInAgain(): Promise<unknown>;
  /** another tab says it signed out (`idle`: it was the idle timeout, not the visitor); to be proven (endProof.ts) */
  signedOutElsewhere(idle: boolean): void;
  /** another tab says the provider refused the leader's refresh; to be proven (endProof.ts) */
  refreshRefusedElsewhere(): void;
  /** as leader: refresh for a follower (`force`: whatever the token's validity) */
  refreshForFollower(force: boolean): Promise<unknown>;
  /** a message of another kind (the session's expiry and activity messages) */
  receiveOther(message: { type: string } & Record<string, unknown>): void;
}

/** How long a new tab waits for the leading tab's tokens before it does check-sso itself. */
export const SEED_WAIT_MS = 1500;

const PREFIX = 'gatehouse-auth:';
type Message = { type: string } & Record<string, unknown>;

interface Waiter {
  readonly kc: KeycloakLike;
  readonly minValidity: number;
  /** the token this tab had when it asked */
  readonly had: string | undefined;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The leader's refresh failed; `refused` when the provider ended the session (HTTP 400). */
export class LeaderRefreshFailed extends Error {
  constructor(readonly refused: boolean) {
    super(
      refused ? 'The identity provider refused the refresh in the leading tab.' : 'The leading tab could not reach the identity provider.',
    );
  }
}

/**
 * One refresh for all tabs. The leading tab (Web Locks) is the only one that calls the token endpoint:
 * a follower that needs a fresh token asks it over BroadcastChannel and waits for the tokens it shares
 * after every refresh. A new tab asks the leader for its tokens instead of a check-sso round trip; a tab
 * that signs in shares its tokens, which signs the other tabs in; sign-out reaches every tab at once.
 * Without the Web Locks API every tab leads itself (and still shares what it gets).
 *
 * What crosses the channel is the access and ID tokens, never the refresh token (decisions/0053), and a
 * token set is used only once its signatures verify against the provider's published keys.
 */
export class TabCoordinator {
  private readonly channel: TabChannel;
  private readonly leader: TabLeader | null;
  private readonly waiters = new Set<Waiter>();
  private seedWaiter: ((set: TokenSet | null) => void) | null = null;
  /** waiting for a live tab's fresh tokens (`vouch`) */
  private readonly vouchers = new Set<() => void>();

  constructor(
    factory: TabChannelFactory,
    locks: TabLocks | null,
    private readonly host: TabHost,
    /** runs when this tab takes the lead (the session-events stream follows it) */
    private readonly onLeading: () => void = () => undefined,
  ) {
    const { realm, clientId } = host.config;
    this.channel = factory(channelName(realm, clientId));
    this.channel.onMessage((data) => this.receive(data));
    this.leader = locks ? new TabLeader(locks, leaderLockName(realm, clientId), () => this.becameLeader()) : null;
  }

  /** Without Web Locks there is no election, and each tab refreshes for itself. */
  get isLeader(): boolean {
    return this.leader ? this.leader.isLeader : true;
  }

  /**
   * Tokens of a live signed-in tab for a new tab, or null (no other tab leads, it is signed out, it did
   * not answer within `timeoutMs`, or its tokens cannot seed this tab). Call before `campaign()`. The session
   * signs in from these tokens at once and has keycloak-js confirm them behind it (seedCheck.ts).
   */
  async seed(timeoutMs = SEED_WAIT_MS): Promise<TokenSet | null> {
    if (!this.leader || !(await this.leader.otherTabLeads())) return null;
    this.host.verify.warm?.(); // the provider's keys, fetched while the leading tab answers
    return new Promise<TokenSet | null>((resolve) => {
      const timer = setTimeout(() => finish(null), timeoutMs);
      const finish = (answer: TokenSet | null) => {
        clearTimeout(timer);
        this.seedWaiter = null;
        // judged by this tab's clock, never by the skew the message names
        const set = answer && { ...answer, timeSkew: this.host.timeSkew() };
        if (!set || seedProblem(set, this.host.config, Date.now()) !== null) return resolve(null);
        this.host.verify(set).then(
          (problem) => {
            if (problem) this.host.refused(`seed: ${problem}`);
            resolve(problem ? null : set);
          },
          () => resolve(null),
        );
      };
      this.seedWaiter = finish;
      this.post({ type: 'seed-request' });
    });
  }

  /** Queues this tab for leadership (it leads at once when no other tab does). */
  campaign(): void {
    this.leader?.campaign();
  }

  /** Brings `kc`'s token to `minValidity` seconds (-1: a new one): the leader refreshes, a follower asks it. */
  refresh(kc: KeycloakLike, minValidity: number): Promise<unknown> {
    if (this.isLeader) return this.refreshHere(kc, minValidity);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        kc,
        minValidity,
        had: kc.token,
        resolve: () => {
          this.waiters.delete(waiter);
          resolve();
        },
        reject: (error) => {
          this.waiters.delete(waiter);
          reject(error);
        },
      };
      this.waiters.add(waiter);
      this.post({ type: 'refresh-request', force: minValidity === -1, had: fingerprint(kc.token) });
    });
  }

  /**
   * Whether a live tab vouches for the session: true once this tab took fresh tokens (verified, of this session) the
   * leading tab sent on request, false after `timeoutMs` (a `no-session` answer proves nothing: anyone can post it).
   */
  vouch(kc: KeycloakLike, timeoutMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const check = () => void (kc.token && !tokenExpired(kc, USERINFO_MARGIN_S) && finish(true));
      const timer = setTimeout(() => finish(false), timeoutMs);
      const finish = (vouched: boolean) => {
        clearTimeout(timer);
        this.vouchers.delete(check);
        resolve(vouched);
      };
      this.vouchers.add(check);
      this.post({ type: 'refresh-request', force: false, had: fingerprint(kc.token) });
    });
  }

  /** Shares this tab's tokens with the others (after its refresh or its own sign-in). */
  shareTokens(kc: KeycloakLike): void {
    const tokens = readTokenSet(kc);
    if (tokens) this.post({ type: 'tokens', tokens });
  }

  announceSignOut(idle = false): void {
    this.post(idle ? { type: 'signed-out', idle } : { type: 'signed-out' });
  }

  announceRefreshRefused(): void {
    this.post({ type: 'refresh-failed', refused: true });
  }

  /** Sends a message of the session's own (expiry, activity); it must carry no token. */
  send(message: Message): void {
    this.post(message);
  }

  close(): void {
    this.leader?.resign();
    this.channel.close();
  }

  private post(message: Message): void {
    this.channel.postMessage({ ...message, type: `${PREFIX}${message.type}` });
  }

  private receive(data: unknown): void {
    if (typeof data !== 'object' || data === null) return;
    const raw = data as Record<string, unknown>;
    if (typeof raw.type !== 'string' || !raw.type.startsWith(PREFIX)) return;
    const message: Message = { ...raw, type: raw.type.slice(PREFIX.length) };
    switch (message.type) {
      case 'signed-out':
        return this.host.signedOutElsewhere(message.idle === true);
      case 'tokens':
        // judged by this tab's clock, never by the message's skew
        if (isTokenSet(message.tokens)) void this.tokensArrived({ ...tokenFields(message.tokens), timeSkew: this.host.timeSkew() });
        else this.host.refused('a token set of the wrong shape');
        return;
      case 'refresh-request':
        if (this.isLeader) void this.answerRefresh(message.force === true, String(message.had));
        return;
      case 'refresh-failed':
        return this.refreshFailed(message.refused === true);
      case 'seed-request':
        if (this.leader?.isLeader) void this.answerSeed();
        return;
      case 'no-session':
        this.seedWaiter?.(null);
        // the leader has no refresh token to rotate, so each waiting follower refreshes for itself
        for (const waiter of [...this.waiters]) this.refreshDirectly(waiter);
        return;
      default:
        this.host.receiveOther(message);
    }
  }

  private async tokensArrived(tokens: TokenSet): Promise<void> {
    this.seedWaiter?.(tokens);
    await this.host.receiveTokens(tokens);
    for (const waiter of [...this.waiters]) {
      const { kc } = waiter;
      const fresh = waiter.minValidity === -1 ? kc.token !== waiter.had : Boolean(kc.token) && !tokenExpired(kc, waiter.minValidity);
      if (fresh) waiter.resolve();
    }
    for (const check of [...this.vouchers]) check();
  }

  private refreshFailed(refused: boolean): void {
    if (refused) this.host.refreshRefusedElsewhere();
    for (const waiter of [...this.waiters]) waiter.reject(new LeaderRefreshFailed(refused));
  }

  private async answerSeed(): Promise<void> {
    await this.host.settled();
    const kc = this.host.keycloak();
    if (this.host.isSignedIn() && !this.host.inDoubt() && kc) this.shareTokens(kc);
    else this.post({ type: 'no-session' });
  }

  private async answerRefresh(force: boolean, had: string): Promise<void> {
    const kc = this.host.keycloak();
    if (!this.host.isSignedIn() || !kc?.token) return this.post({ type: 'no-session' });
    const current = force ? fingerprint(kc.token) !== had : !tokenExpired(kc, this.host.config.minValidity);
    if (current) return this.shareTokens(kc);
    const before = kc.token;
    try {
      await this.host.refreshForFollower(force);
      // a refresh shares its tokens by itself; share here only when none was needed
      if (kc.token === before) this.shareTokens(kc);
    } catch {
      this.post({ type: 'refresh-failed', refused: !this.host.isSignedIn() });
    }
  }

  private becameLeader(): void {
    this.onLeading();
    for (const waiter of [...this.waiters]) this.refreshDirectly(waiter);
  }

  private refreshDirectly(waiter: Waiter): void {
    this.refreshHere(waiter.kc, waiter.minValidity).then(waiter.resolve, waiter.reject);
  }

  /** A refresh this tab makes itself: with its own refresh token, or (it has none) by signing in again. */
  private refreshHere(kc: KeycloakLike, minValidity: number): Promise<unknown> {
    return kc.refreshToken ? kc.updateToken(minValidity) : this.host.signInAgain();
  }
}
