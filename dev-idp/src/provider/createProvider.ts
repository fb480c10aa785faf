import type { KoaContext, TokenInstance } from 'oidc-provider';
import Provider from 'oidc-provider';

import { accessTokenClaims, idTokenClaims } from '../tokens/claims.js';
import { DPOP_ALGORITHMS } from '../tokens/dpop.js';
import { downscopedTo } from '../tokens/downscope.js';
import { PAGE_SECURITY_HEADERS } from '../http/respond.js';
import { errorPage } from '../pages/errorPage.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';
import { redirectUriMatches } from '../sessions/redirect.js';
import { createAdapterClass } from './adapter.js';
import { recordGrantError } from './grantErrors.js';
import { toClientMetadata } from './clientMetadata.js';
import { loginActionUrl } from './loginActionUrl.js';
import type { InteractionInfo } from './loginActionUrl.js';
import { preserveFragment } from './preserveFragment.js';
import { KEYCLOAK_ROUTES } from './routes.js';
import { interactionPolicyWithStepUp } from './stepUp.js';
import { trackSsoSession } from './trackSsoSession.js';

/** The single resource every access token is for: makes oidc-provider issue JWT access tokens. */
export const ACCOUNT_RESOURCE = 'urn:gatehouse:dev-idp:account';
const BUILTIN_SCOPES = 'openid profile email offline_access roles web-origins acr basic address phone';
/**
 * An `aud` that is there for oidc-provider's check (a JWT access token must have an audience) and absent from the
 * token: JSON.stringify leaves out a value whose toJSON returns undefined. test/dpop.test.ts checks that it is absent.
 */
const NO_AUDIENCE = Object.freeze({ toJSON: (): undefined => undefined });
const PROFILE_CLAIMS = ['preferred_username', 'name', 'given_name', 'family_name', 'email', 'email_verified'];

/**
 * An oidc-provider instance configured to look like a Keycloak realm. Each Keycloak behaviour
 * that oidc-provider does not have by default is one setting here; decisions/0001 lists them.
 */
export function createProvider(runtime: RealmRuntime, issuer: string): Provider {
  const { realm } = runtime;
  // Every scope value oidc-provider lets through to the grant and tokens: the built-in ones and the realm's client
  // scopes (which ones a token gets is claims.ts's, from the client's default and optional scopes).
  const ALL_SCOPES = [...new Set([...BUILTIN_SCOPES.split(' '), ...realm.clientScopes.map((s) => s.name)])].join(' ');
  // Keycloak's browser-session cookies are `Secure; SameSite=None` over HTTPS (koa adds Secure), else Lax.
  const sameSite = issuer.startsWith('https:') ? 'none' : 'lax';
  const provider = new Provider(issuer, {
    adapter: createAdapterClass(
      runtime.store,
      (id) => {
        const client = runtime.client(id);
        return client && toClientMetadata(client);
      },
      (grantId) => runtime.revoked.revokeGrant(grantId),
      (uid) => runtime.sessions.ended(uid),
    ),
    jwks: { keys: [runtime.keys.privateJwk] },
    routes: KEYCLOAK_ROUTES,
    cookies: {
      names: { session: 'KEYCLOAK_IDENTITY', interaction: 'KC_INTERACTION', resume: 'KC_RESUME' },
      long: { httpOnly: true, sameSite, path: `${runtime.path}/` },
      short: { httpOnly: true, sameSite, path: `${runtime.path}/` },
      keys: [runtime.cookieKey],
    },
    interactions: {
      url: (_ctx: unknown, interaction: InteractionInfo) => loginActionUrl(runtime, interaction),
      policy: interactionPolicyWithStepUp(runtime),
    },
    // The DPoP proof algorithms Keycloak 26 takes (and lists in discovery); oidc-provider's default is ES256 and EdDSA.
    enabledJWA: { dPoPSigningAlgValues: DPOP_ALGORITHMS },
    // Keycloak reads `claims` (an essential acr) without oidc-provider's claims-parameter feature.
    extraParams: ['claims'],
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => ACCOUNT_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: ALL_SCOPES,
          accessTokenTTL: realm.accessTokenLifespan,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // The code flow only (with PKCE where the client asks for it): Gatehouse signs in with nothing else, and a
    // realm file that enables the implicit flow is refused (realm/validate.ts).
    responseTypes: ['code'],
    scopes: ALL_SCOPES.split(' '),
    // Keycloak puts profile and email claims in every ID token, whatever the scope.
    claims: { openid: ['sub', 'typ', 'azp', 'sid', 'acr', ...PROFILE_CLAIMS], profile: [], email: [] },
    conformIdTokenClaims: false,
    pkce: { required: (_ctx: unknown, client: { clientId: string }) => runtime.client(client.clientId)?.pkceMethod !== undefined },
    rotateRefreshToken: false,
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => true,
    ttl: {
      AccessToken: () => realm.accessTokenLifespan,
      IdToken: () => realm.accessTokenLifespan,
      AuthorizationCode: 60,
      Interaction: 1800,
      RefreshToken: () => realm.ssoSessionMaxLifespan,
      Session: () => realm.ssoSessionMaxLifespan,
      Grant: () => realm.ssoSessionMaxLifespan,
    },
    findAccount: async (ctx: KoaContext, id: string) => {
      const user = runtime.user(id);
      if (!user || !user.enabled) return undefined;
      return {
        accountId: id,
        claims: async () => {
          const sid = sessionOf(ctx);
          const acr = runtime.clientAcr.get(`${sid} ${ctx.oidc.client?.clientId}`);
          return { sub: id, azp: ctx.oidc.client?.clientId, sid, ...idTokenClaims(user, acr) };
        },
      };
    },
    loadExistingGrant: async (ctx: KoaContext) => {
      const { session, client } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      // One grant per client and session, reused by each later authorization (another tab, check-sso,
      // prompt=login): oidc-provider binds refresh tokens to the session's current grant, so a new one
      // would end the refresh tokens issued before it, which Keycloak keeps.
      const existing = session.grantIdFor(client.clientId);
      const found = existing ? await provider.Grant.find(existing) : undefined;
      if (found && found.accountId === session.accountId) return found;
      // Keycloak asks no consent by default: every requested scope is granted.
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(ALL_SCOPES);
      grant.addResourceScope(ACCOUNT_RESOURCE, ALL_SCOPES);
      await grant.save();
      return grant;
    },
    formats: {
      customizers: {
        jwt: async (ctx: KoaContext, token: TokenInstance, jwt: { header: Record<string, unknown>; payload: Record<string, unknown> }) => {
          const user = runtime.user(token.accountId);
          const client = runtime.client(token.clientId);
          if (!user || !client) return jwt;
          const sid = token.sessionUid ?? '';
          delete jwt.payload.client_id;
          delete jwt.payload.aud;
          jwt.header = { ...jwt.header, typ: 'JWT' };
          const session = runtime.sessions.active(sid);
          Object.assign(jwt.payload, {
            auth_time: session?.started ?? token.authTime,
            ...accessTokenClaims({
              realm,
              user,
              client,
              sid,
              // a downscoped refresh (downscope.ts) issues for the scopes it asked for; else the token's own
              scope: downscopedTo(ctx?.req) ?? token.scope ?? 'openid',
              acr: runtime.clientAcr.get(`${sid} ${client.clientId}`),
            }),
          });
          // Keycloak types an access token bound to a DPoP key (`cnf.jkt`, which oidc-provider set) `DPoP`
          const cnf = jwt.payload.cnf as { jkt?: unknown } | undefined;
          if (typeof cnf?.jkt === 'string') jwt.payload.typ = 'DPoP';
          // Keycloak omits `aud` when the token's client scopes name no audience; oidc-provider refuses to sign a JWT
          // access token without one, so it gets a value that passes that check and is left out of the signed JSON.
          jwt.payload.aud ??= NO_AUDIENCE;
          const { grantId } = token as TokenInstance & { grantId?: string };
          if (grantId && typeof jwt.payload.jti === 'string') runtime.revoked.issued(grantId, jwt.payload.jti, Number(jwt.payload.exp));
          return jwt;
        },
      },
    },
    clientBasedCORS: () => true,
    renderError: async (ctx: KoaContext, out: { error: string; error_description?: string }) => {
      ctx.type = 'html';
      ctx.set(PAGE_SECURITY_HEADERS);
      ctx.body = errorPage(realm, keycloakMessage(out));
    },
  });
  // The Keycloak `sid` is one id per SSO session, shared by all clients (oidc-provider makes one per client).
  provider.Session.prototype.ensureClientContainer = function ensureClientContainer(clientId) {
    if (!this.sidFor(clientId)) this.sidFor(clientId, this.uid);
  };
  provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(value) {
    const client = runtime.client(this.clientId);
    return client !== undefined && redirectUriMatches(value, client.redirectUris);
  };
  // oidc-provider writes the session's `acr` over the account's claims; Keycloak's is per client (see acr.ts).
  const issueIdToken = provider.IdToken.prototype.issue;
  provider.IdToken.prototype.issue = function issueWithClientAcr(...args) {
    const acr = runtime.clientAcr.get(`${String(this.available.sid)} ${String(this.available.azp)}`);
    if (acr !== undefined) this.available.acr = acr;
    return issueIdToken.apply(this, args);
  };
  // The server sets X-Forwarded-* to the frontend URL (and strips what clients sent), so koa may read them.
  provider.proxy = true;
  provider.use(trackSsoSession(runtime));
  provider.use(preserveFragment);
  provider.on('grant.error', (ctx, error) =>
    recordGrantError((ctx as KoaContext).req, error as { error_detail?: string; cause?: unknown }),
  );
  provider.on('server_error', (_ctx, error) => console.error(`dev-idp: realm ${realm.name}:`, error));
  return provider;
}

/** The SSO session (Keycloak `sid`) of the code or refresh token being exchanged. */
function sessionOf(ctx: KoaContext): string | undefined {
  const entities = (ctx.oidc as { entities?: Record<string, TokenInstance | undefined> }).entities;
  return entities?.AuthorizationCode?.sessionUid ?? entities?.RefreshToken?.sessionUid ?? ctx.oidc.session?.uid;
}

function keycloakMessage(out: { error: string; error_description?: string }): string {
  const description = out.error_description ?? '';
  if (/redirect_uri/.test(description)) return 'Invalid parameter: redirect_uri';
  if (out.error === 'invalid_client' || /client/.test(description)) return 'Client not found.';
  if (/session|interaction/i.test(description)) return 'Your login attempt timed out. Login will start from the beginning.';
  return description || out.error;
}
