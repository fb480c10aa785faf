import type { KeycloakLike } from '../keycloak/keycloak';
import { tokenExpired } from '../tokens/tokenSet';
import { withTimeout } from '../util/withTimeout';

/** What one check of the session at the provider found; `unknown`: no answer (network, timeout, 5xx). */
export type CheckOutcome = 'alive' | 'ended' | 'unknown';

export interface ProviderCheckSettings {
  /** seconds a token must have left to be sent to the user-info endpoint */
  readonly minValidity: number;
  /** milliseconds the check may take */
  readonly timeout: number;
}

/**
 * How long a token must still have by this browser's clock for the provider's 401 to be about the session, not
 * about the token: keycloak-js measures its clock skew in whole seconds (from the middle of the token request), so
 * a token it counts a second valid may have run out at the provider already.
 */
export const USERINFO_MARGIN_S = 2;

/** The HTTP status keycloak-js's NetworkError carries, or null. */
export function statusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null || !('response' in error)) return null;
  const { response } = error as { response?: { status?: unknown } };
  return typeof response?.status === 'number' ? response.status : null;
}

/**
 * Asks the provider whether the session behind `kc`'s tokens still lives, first-party (no cookie, no frame;
 * decisions/0029). With a valid access token: GET user-info with it, which Keycloak answers 401 once the user
 * session is gone (it looks the session up and does not extend it). With an expired one: the page's normal
 * refresh (`refresh`, one for all tabs), which the provider refuses for an ended session; the refresh path
 * ends the session itself then.
 *
 * Keycloak answers 401 too when the token ran out on its way (a slow provider, a node failing over): a 401 ends
 * the session only when it came back while the token was still valid by a margin (USERINFO_MARGIN_S). Otherwise
 * the token is due by now, and the check goes on as for an expired one, with the refresh (decisions/0091). No
 * second request for a refusal that came while the token was valid: that one is about the session.
 */
export async function askProvider(
  kc: KeycloakLike,
  settings: ProviderCheckSettings,
  refresh: () => Promise<unknown>,
  isSignedIn: () => boolean,
): Promise<CheckOutcome> {
  if (kc.token && !tokenExpired(kc, settings.minValidity)) {
    try {
      await withTimeout(kc.loadUserInfo(), settings.timeout, () => new Error('user-info did not answer in time'));
      return 'alive';
    } catch (error) {
      if (statusOf(error) !== 401) return 'unknown';
      if (kc.token && !tokenExpired(kc, USERINFO_MARGIN_S)) return 'ended';
      // the token may have run out on the way: the refresh below tells an ended session from a live one
      if (kc.token && !tokenExpired(kc, settings.minValidity)) return 'unknown';
    }
  }
  try {
    await refresh();
    return 'alive';
  } catch {
    return isSignedIn() ? 'unknown' : 'ended';
  }
}
