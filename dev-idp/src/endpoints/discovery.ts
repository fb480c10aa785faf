import { exportSPKI } from 'jose';

import { interceptJson } from '../http/interceptJson.js';
import { sendJson } from '../http/respond.js';
import { OPENID_CONNECT } from '../provider/routes.js';
import type { RealmRequest } from './RealmRequest.js';

/**
 * oidc-provider's discovery document plus what Keycloak also advertises: its userinfo and
 * logout endpoints (served by us), the login-status frame as `check_session_iframe`, and
 * the password grant.
 */
export function discoveryEndpoint({ runtime, res, forward }: RealmRequest): void {
  const base = `${runtime.issuer}${OPENID_CONNECT}`;
  interceptJson(res, async ({ status, body }) => {
    if (status !== 200) return { status, body };
    const grants = Array.isArray(body.grant_types_supported) ? body.grant_types_supported : [];
    return {
      status,
      body: {
        ...body,
        userinfo_endpoint: `${base}/userinfo`,
        end_session_endpoint: `${base}/logout`,
        check_session_iframe: `${base}/login-status-iframe.html`,
        frontchannel_logout_supported: false,
        grant_types_supported: [...new Set([...grants, 'password'])],
        response_modes_supported: ['query', 'fragment', 'form_post'],
        // Keycloak: the LoA levels "0" (SSO) and "1" (a password), and the names of the realm's acr.loa.map
        acr_values_supported: [...new Set(['0', '1', ...Object.keys(runtime.realm.acrLoaMap)])],
        claims_parameter_supported: true,
      },
    };
  });
  forward();
}

/** `GET /realms/{realm}`: Keycloak's public realm info (public key, service URLs). */
export async function realmInfoEndpoint({ runtime, res }: RealmRequest): Promise<void> {
  const publicKey = (await exportSPKI(runtime.keys.publicKey)).replace(/-----[A-Z ]+-----|\s/g, '');
  sendJson(res, 200, {
    realm: runtime.realm.name,
    public_key: publicKey,
    'token-service': `${runtime.issuer}${OPENID_CONNECT}`,
    'account-service': `${runtime.issuer}/account`,
    'tokens-not-before': 0,
  });
}
