import type { SessionEvent, SignOutReason } from '../../types';
import type { ResolvedConfig } from '../config';
import type { KeycloakLike } from '../keycloak/keycloak';
import type { EventEmitter, SnapshotStore } from '../store';
import type { TabHost } from './tabCoordinator';
import { decodeClaims, ownSkew, readTokenSet, replacesCurrent, seedProblem, type TokenSet } from '../tokens/tokenSet';
import type { TokenVerifier } from '../tokens/tokenVerifier';

/** The parts of a KeycloakSession the tab coordinator works through. */
export interface SessionForTabs {
  readonly config: ResolvedConfig;
  readonly store: SnapshotStore;
  readonly events: Pick<EventEmitter, 'emit'>;
  readonly verify: TokenVerifier;
  /** SSO sessions (`sid`) this tab saw end: tokens of those never sign it in again */
  readonly endedSessions: ReadonlySet<string>;
  keycloak(): KeycloakLike | null;
  ready(): Promise<unknown>;
  /** keycloak-js being readied behind a seeded tab, or null */
  confirming(): Promise<unknown> | null;
  /** takes newer tokens of this tab's own session */
  adopt(kc: KeycloakLike, set: TokenSet): void;
  /**
   * another tab signed in: this signed-out tab asks the provider itself (check-sso, without a page load) and signs in
   * only with the provider's own tokens; a message alone never signs it in (decisions/0108)
   */
  confirmSignIn(): void;
  endAndDrop(reason: SignOutReason): void;
  /** another tab says the session ended: this tab ends it only once the provider confirms (endProof.ts) */
  endIfProven(reason: SignOutReason, what: string): void;
  /** whether such a claim is being checked */
  inDoubt(): boolean;
  signInAgain(): Promise<void>;
  refreshForFollower(force: boolean): Promise<unknown>;
  receiveOther(message: { type: string } & Record<string, unknown>): void;
}

/** What the tab coordinator may do with a session. */
export function tabHostFor(session: SessionForTabs): TabHost {
  const isSignedIn = () => session.store.get().status === 'authenticated';
  const refused = (reason: string) => session.events.emit({ type: 'tabMessageRefused', reason } satisfies SessionEvent);

  /**
   * Tokens from another tab, once their signatures verify: newer ones of this tab's session replace this
   * tab's; a signed-out tab asks the provider whether it is signed in (the tokens are not used). A refused set
   * changes nothing and is reported as an event.
   */
  const receiveTokens = async (set: TokenSet): Promise<void> => {
    const { status: before } = session.store.get();
    if (before !== 'authenticated' && before !== 'anonymous') return;
    const problem = await session.verify(set).catch((error: unknown) => `not verified (${String(error)})`);
    if (problem) return refused(problem);
    // tokens that arrive while a seeded tab's keycloak-js is being readied are taken once it is
    await session.confirming();
    const { status } = session.store.get();
    const kc = session.keycloak();
    if (status === 'authenticated' && kc) {
      // only newer tokens of this tab's own session (user, SSO session, issuer, client) are adopted
      if (replacesCurrent(set, readTokenSet(kc), session.config)) session.adopt(kc, set);
    } else if (status === 'anonymous' && seedProblem(set, session.config, Date.now()) === null) {
      const sid = decodeClaims(set.token)?.sid;
      if (typeof sid !== 'string' || !session.endedSessions.has(sid)) session.confirmSignIn();
    }
  };

  return {
    config: session.config,
    keycloak: () => session.keycloak(),
    isSignedIn,
    inDoubt: () => session.inDoubt(),
    settled: () => session.ready(),
    receiveTokens,
    verify: session.verify,
    timeSkew: () => ownSkew(session.keycloak()),
    refused,
    signInAgain: () => session.signInAgain(),
    signedOutElsewhere: (idle) => session.endIfProven(idle ? 'idle' : 'other-tab', 'signed-out'),
    refreshRefusedElsewhere: () => session.endIfProven('refresh-refused', 'refresh-failed'),
    refreshForFollower: (force) => session.refreshForFollower(force),
    receiveOther: (message) => session.receiveOther(message),
  };
}
