import { signLogoutToken } from './logoutToken.js';
import type { RealmKeys } from './keys.js';

/** A client that takes back-channel logout: its id and its `attributes["backchannel.logout.url"]`. */
export interface BackchannelTarget {
  clientId: string;
  url: string;
  /** `backchannel.logout.session.required` (default true here): whether the token names the session (`sid`) */
  sessionRequired?: boolean;
  /** `backchannel.logout.revoke.offline.tokens`: `events` also carries `revoke_offline_access: true` */
  revokeOfflineTokens?: boolean;
  /** The issuer the client's session was signed in at (Keycloak's client session note `iss`); default the realm's. */
  issuer?: string;
}

/**
 * Posts one logout token per target for the session that ended, as Keycloak 26.7.3 does (decisions/0118):
 * `application/x-www-form-urlencoded`, body `logout_token=…` only, sent once — the receiver's status, or its
 * absence, changes nothing and is never retried; a failure is only reported through `onFailure`.
 * Resolves when every POST has been answered or has failed.
 */
export async function postLogoutTokens(
  realm: { issuer: string; keys: Pick<RealmKeys, 'kid' | 'privateKey'> },
  targets: readonly BackchannelTarget[],
  session: { sub: string; sid: string },
  onFailure: (target: BackchannelTarget, reason: unknown) => void = () => {},
): Promise<void> {
  await Promise.all(
    targets.map(async (target) => {
      try {
        const token = await signLogoutToken(
          { issuer: target.issuer ?? realm.issuer, keys: realm.keys },
          {
            clientId: target.clientId,
            sub: session.sub,
            sid: target.sessionRequired === false ? undefined : session.sid,
            revokeOfflineAccess: target.revokeOfflineTokens,
          },
        );
        const response = await fetch(target.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ logout_token: token }).toString(),
          redirect: 'manual',
          signal: AbortSignal.timeout(5000),
        });
        await response.body?.cancel();
        if (!response.ok) onFailure(target, new Error(`answered ${response.status}`));
      } catch (reason) {
        onFailure(target, reason);
      }
    }),
  );
}
