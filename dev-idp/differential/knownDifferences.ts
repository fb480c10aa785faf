const INTERNAL_LOGIN_COOKIE =
  "the login attempt's own HttpOnly cookie: no client reads it, and it lives only while the form is open (oidc-provider's interaction, Keycloak's authentication session)";
const COOKIE_ATTRIBUTES =
  'Secure and SameSite=None on plain http (Keycloak 26) against SameSite=Lax here: the cookie layer of branch `proxy` decides these; on localhost both reach the browser';
const IDENTITY_COOKIE =
  'the SSO session cookie: dev-idp signs it (oidc-provider keygrip, hence `.sig`) and gives it the SSO lifespan as expiry (Keycloak: a browser-session cookie); HttpOnly, no client reads it';

const UNASKED_DPOP_NONCE =
  'a DPoP proof with a `nonce` claim though the server never sent a `DPoP-Nonce`: Keycloak 26 (which sends none) ignores the claim, oidc-provider refuses the proof (400 `invalid_dpop_proof` "DPoP nonces are not supported"); a client puts a nonce in a proof only when a server asked for one (RFC 9449 §8; auth-lib\'s dpop.ts too), and neither provider asks';
const NONCE_PROOF = 'refresh, proof with a nonce nobody asked for';

/**
 * Where the dev IdP answers differently from Keycloak 26 on purpose, by probe and field, with why a client
 * does not notice (or why it is out of the dev IdP's scope). dev-idp/README.md shows the same table; the
 * differential test fails on any difference not listed here.
 */
export const KNOWN_DIFFERENCES: Record<string, Record<string, string>> = {
  'DPoP: proofs the token endpoint refuses': Object.fromEntries(
    ['status', 'error', 'error_description', 'token_type', 'access.cnf.jkt', 'refresh.cnf.jkt', 'access.aud', 'access.typ'].map((field) => [
      `${NONCE_PROOF} ${field}`,
      UNASKED_DPOP_NONCE,
    ]),
  ),
  discovery: {
    'token_endpoint_auth_methods_supported ∋ none':
      'Keycloak does not list `none` though its public clients use it; clients do not read this list',
    'response_types_supported ∋ id_token token':
      "the dev IdP has no implicit flow: Gatehouse and keycloak-js by default sign in with the code flow and PKCE; an implicit request gets Keycloak's answer for a client with the flow off",
  },
  'token response and tokens': {
    'id_token.at_hash':
      'oidc-provider adds at_hash only when the ID token comes with an access token from the authorization endpoint; the code flow does not need it and keycloak-js does not check it',
    'id_token.header.typ': 'oidc-provider signs ID tokens without `typ`; clients check the `typ` claim ("ID"), which matches',
    'id_token.jti': 'no client reads an ID token’s jti',
    'refresh_token.aud_x':
      "Keycloak-internal claim of its refresh token (audiences of the access token's roles); refresh tokens are opaque to clients",
    'refresh_token.header.alg':
      'Keycloak signs refresh tokens with the realm’s HS512 secret, the dev IdP with its RS256 key; clients never verify refresh tokens (keycloak-js only decodes them)',
    'refresh_token.prov': 'Keycloak-internal claim of its refresh token (the token provider)',
  },
  'CORS on the token endpoint': {
    'allowed origin: preflight': 'a preflight answers 204 instead of 200; browsers accept any 2xx',
    'unknown origin: preflight':
      "Keycloak lets any origin's preflight through and refuses the request itself (403 Invalid origin, matched); the dev IdP already refuses the preflight, so the browser never sends it",
  },
  'cookies of a sign-in': {
    AUTH_SESSION_ID: INTERNAL_LOGIN_COOKIE,
    KC_AUTH_SESSION_HASH: INTERNAL_LOGIN_COOKIE,
    KC_RESTART: INTERNAL_LOGIN_COOKIE,
    KC_INTERACTION: INTERNAL_LOGIN_COOKIE,
    'KC_INTERACTION.sig': INTERNAL_LOGIN_COOKIE,
    KC_RESUME: INTERNAL_LOGIN_COOKIE,
    'KC_RESUME.sig': INTERNAL_LOGIN_COOKIE,
    KEYCLOAK_IDENTITY: `${IDENTITY_COOKIE}; ${COOKIE_ATTRIBUTES}`,
    'KEYCLOAK_IDENTITY.sig': IDENTITY_COOKIE,
    KEYCLOAK_SESSION: COOKIE_ATTRIBUTES,
  },
  'logout confirmation without its session code (cross-site POST)': {
    'forged POST status':
      'Keycloak answers a confirmation without its code with an error page and status 500, the dev IdP with 400 and a message that says to open the logout link again; in both the session survives',
  },
};
