import type { SignOutReason } from '../../types';
import type { ResolvedConfig } from '../config';
import type { KeycloakLike } from '../keycloak/keycloak';
import { statusOf, USERINFO_MARGIN_S } from './providerCheck';
import { tokenExpired } from '../tokens/tokenSet';
import { withTimeout } from '../util/withTimeout';

/** What a tab needs to check another tab's word that the session ended. */
export interface EndProofHost {
  readonly config: Pick<ResolvedConfig, 'timeout'>;
  keycloak(): KeycloakLike | null;
  isSignedIn(): boolean;
  isLeader(): boolean;
  /** a refresh with this tab's own refresh token (one the provider refuses ends the session by itself) */
  refreshOwn(kc: KeycloakLike): Promise<unknown>;
  /** asks the leading tab for fresh tokens: true once tokens of this session, verified, were taken (decisions/0053) */
  askTabs(kc: KeycloakLike): Promise<boolean>;
  end(reason: SignOutReason): void;
  refused(reason: string): void;
}

type Verdict = 'ended' | 'alive' | 'unknown';

/**
 * Waits between the checks of one claim: a tab that signs out posts `signed-out` before its navigation reaches the
 * provider's logout endpoint, so the first check may still find the session alive (7 s in all). Dense for the first
 * four seconds, when a sign-out elsewhere lands even on a busy machine: a provider slow to end the session is noticed
 * a quarter-second after it did, not up to two seconds after (on a loaded machine the signing-out tab was back on its
 * page, signed out at Keycloak, within 4 s of the click while the other tab's next check, at 3.5 s plus the request,
 * had not come). At most 19 user-info requests, once per sign-out.
 */
export const PROOF_RETRIES_MS: readonly number[] = [...Array.from({ length: 16 }, () => 250), 1000, 2000];

/**
 * A message that says the session ended (`signed-out`, `watch-session-ended`, `refresh-failed`) carries no authority
 * of its own: any same-origin script can post one (decisions/0108). This tab ends its session only when the
 * provider says so to this tab: user-info answers 401 to its still-valid access token, or the provider refuses the
 * refresh of its own refresh token. A seeded tab whose access token ran out asks the leading tab for fresh tokens
 * first; when no tab of this browser holds the session any more (none answers with verified tokens), it ends too.
 * While the provider says the session lives, the claim is checked again a few times, then refused (reported as
 * `tabMessageRefused`) and nothing changes.
 */
export class EndProof {
  private running: Promise<void> | null = null;
  private claimed: SignOutReason | null = null;

  constructor(private readonly host: EndProofHost) {}

  /** Whether a claim is being checked: the session may have ended, so this tab seeds no new tab meanwhile. */
  get inDoubt(): boolean {
    return this.running !== null;
  }

  /**
   * The reason to end with when the provider's own word arrives another way while a claim is checked (keycloak-js's
   * login-status frame saw the cookie go, a refresh was refused): the claim's (`idle`, `other-tab`), else `reason`.
   */
  reasonFor(reason: SignOutReason): SignOutReason {
    return this.claimed !== null && (reason === 'session-ended' || reason === 'refresh-refused') ? this.claimed : reason;
  }

  /** Another tab's word that the session ended, for `reason`; `what` names the message in a refusal. */
  claim(reason: SignOutReason, what: string): void {
    if (!this.host.isSignedIn() || this.running) return;
    this.claimed = reason;
    this.running = this.prove(reason, what).finally(() => {
      this.running = null;
      this.claimed = null;
    });
  }

  private async prove(reason: SignOutReason, what: string): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      const verdict = await this.ask().catch((): Verdict => 'unknown');
      if (!this.host.isSignedIn()) return; // ended meanwhile (e.g. by the provider's refusal of the refresh)
      if (verdict === 'ended') return this.host.end(reason);
      const wait = PROOF_RETRIES_MS[attempt];
      if (wait === undefined) {
        return this.host.refused(`${what}: the identity provider did not confirm that the session ended (${verdict})`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private async ask(): Promise<Verdict> {
    const kc = this.host.keycloak();
    if (!kc?.token) return 'unknown';
    if (!tokenExpired(kc, USERINFO_MARGIN_S)) return this.userInfo(kc);
    if (kc.refreshToken) {
      try {
        await this.host.refreshOwn(kc);
        return 'alive';
      } catch {
        return kc.token ? 'unknown' : 'ended';
      }
    }
    // a leading tab without a refresh token of its own has no one to ask: its session watch decides later
    if (this.host.isLeader()) return 'unknown';
    // a seeded tab: fresh tokens from the leading tab, then the provider; no tab holds the session any more: ended
    if (!(await this.host.askTabs(kc))) return 'ended';
    return this.userInfo(kc);
  }

  /** GET user-info with this tab's access token: Keycloak answers 401 once the user session is gone (decisions/0029). */
  private async userInfo(kc: KeycloakLike): Promise<Verdict> {
    try {
      await withTimeout(kc.loadUserInfo(), this.host.config.timeout, () => new Error('user-info did not answer in time'));
      return 'alive';
    } catch (error) {
      return statusOf(error) === 401 && kc.token && !tokenExpired(kc, USERINFO_MARGIN_S) ? 'ended' : 'unknown';
    }
  }
}
