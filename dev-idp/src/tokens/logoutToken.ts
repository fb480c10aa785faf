import { SignJWT } from 'jose';

import type { RealmKeys } from './keys.js';

/** The event a back-channel logout token carries (OpenID Connect Back-Channel Logout 1.0, 2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** Who a logout token is for: the client it is posted to, and the session that ended. */
export interface LogoutTokenFields {
  clientId: string;
  sub: string;
  /**
   * The session, named only when the client's `backchannel.logout.session.required` is "true" (Keycloak's
   * DefaultTokenManager.initLogoutToken); undefined leaves `sid` out.
   */
  sid?: string;
  /** The client's `backchannel.logout.revoke.offline.tokens` is "true": `events` also carries `revoke_offline_access: true`. */
  revokeOfflineAccess?: boolean;
}

/**
 * A back-channel logout token as Keycloak 26.7.3 signs it (measured, decisions/0118): header
 * `{alg: RS256, typ: logout+jwt, kid}`, and these claims in Keycloak's order — `exp` is `iat` + 120 s, `aud` the
 * client id as a string, `typ` "Logout", no `nonce`, no `azp`. Sending it is not here (the sender's job).
 */
export async function signLogoutToken(
  realm: { issuer: string; keys: Pick<RealmKeys, 'kid' | 'privateKey'> },
  fields: LogoutTokenFields,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new SignJWT({
    exp: nowSeconds + 120,
    iat: nowSeconds,
    jti: crypto.randomUUID(),
    iss: realm.issuer,
    aud: fields.clientId,
    sub: fields.sub,
    typ: 'Logout',
    ...(fields.sid === undefined ? {} : { sid: fields.sid }),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {}, ...(fields.revokeOfflineAccess ? { revoke_offline_access: true } : {}) },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'logout+jwt', kid: realm.keys.kid })
    .sign(realm.keys.privateKey);
}
