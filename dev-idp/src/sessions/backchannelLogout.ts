import type { Client } from '../realm/model.js';
import type { BackchannelTarget } from '../tokens/postLogoutToken.js';
import type { SsoSession } from './sessions.js';

/**
 * How a session was logged out, as far as back-channel logout goes (Keycloak 26.7.3, decisions/0118):
 * - `browser`: the end_session endpoint ended the browser's own session (Keycloak's `AuthenticationManager.browserLogout`):
 *   a client with `frontchannelLogout` on is logged out through the browser instead and gets no logout token;
 * - `backchannel`: the session ended without the browser taking part (`AuthenticationManager.backchannelLogout`): the
 *   admin API's user logout and session deletion, and the end_session endpoint with the `id_token_hint` of a session this
 *   browser does not hold; every client of the session is posted to.
 *
 * A session that expires, or that ends because its user was disabled or deleted or its realm deleted, is not logged
 * out in this sense: Keycloak posts nothing then, and neither does the dev IdP.
 */
export type LogoutKind = 'browser' | 'backchannel';

/**
 * The clients of `session` that get a logout token, as Keycloak picks them: each client the session signed in to
 * (its client sessions) that still exists, is enabled and has a `backchannel.logout.url`; for a browser logout, not
 * the clients with front-channel logout. Each token names the issuer the client signed in at, the session only when
 * the client's `backchannel.logout.session.required` is on, and `revoke_offline_access` when its
 * `backchannel.logout.revoke.offline.tokens` is.
 */
export function backchannelTargets(
  session: SsoSession,
  clientById: (clientId: string) => Client | undefined,
  kind: LogoutKind,
): BackchannelTarget[] {
  return [...session.clients].flatMap(([clientId, issuer]) => {
    const client = clientById(clientId);
    if (!client?.enabled || !client.backchannelLogoutUrl) return [];
    if (kind === 'browser' && client.frontchannelLogout) return [];
    return [
      {
        clientId: client.clientId,
        url: client.backchannelLogoutUrl,
        issuer,
        // absent is false, as Keycloak reads it
        sessionRequired: client.backchannelLogoutSessionRequired === true,
        revokeOfflineTokens: client.backchannelLogoutRevokeOfflineTokens === true,
      },
    ];
  });
}
