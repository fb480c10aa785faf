import type { KeycloakLike } from './keycloak';
import { tokenExpired } from './tokenSet';
import { withTimeout } from './withTimeout';

/** What one check of the session at the provider found; `unknown`: no answer (network, timeout, 5xx). */
export type CheckOutcome = 'alive' | 'ended' | 'unknown';

export interface ProviderCheckSettings {
  /** seconds a token must have left to be sent to the user-info endpoint */
  readonly minValidity: number;
  /** milliseconds the check may take */
  readonly timeout: number;
}

function statusOf(error: unknown): number | null {
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
      return statusOf(error) === 401 ? 'ended' : 'unknown';
    }
  }
  try {
    await refresh();
    return 'alive';
  } catch {
    return isSignedIn() ? 'unknown' : 'ended';
  }
}
