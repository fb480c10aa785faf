import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { SignJWT, compactVerify, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';

import { accessTokenClaims, idTokenClaims } from './claims.js';
import { DPOP_ALGORITHMS, dpopProofValid, presentedToken } from './dpop.js';
import type { PresentedToken } from './dpop.js';
import type { RealmRuntime } from '../server/RealmRuntime.js';
import type { Client, User } from '../realm/model.js';
import type { SsoSession } from '../sessions/sessions.js';

/** The bearer token of a request; the scheme is case-insensitive (keycloak-js sends `bearer`). */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** A verified access token of an active session. */
export interface VerifiedAccess {
  payload: JWTPayload & Record<string, unknown>;
  user: User;
  session: SsoSession;
}

/**
 * Verifies an access token the realm issued (signature, issuer, expiry, typ "Bearer", or "DPoP" when bound) and that
 * its session and user are still there, as Keycloak's userinfo and account endpoints do.
 */
export async function verifyAccessToken(runtime: RealmRuntime, token: string | undefined): Promise<VerifiedAccess | undefined> {
  if (!token) return undefined;
  try {
    const { payload } = await jwtVerify(token, runtime.keys.publicKey, { issuer: runtime.issuer, algorithms: ['RS256'] });
    // `DPoP`: bound to a key (`cnf.jkt`), whose proof the endpoint checks (dpop.ts)
    const bound = typeof (payload.cnf as { jkt?: unknown } | undefined)?.jkt === 'string';
    if (payload.typ !== 'Bearer' && !(payload.typ === 'DPoP' && bound)) return undefined;
    const session = runtime.sessions.active(typeof payload.sid === 'string' ? payload.sid : undefined);
    const user = runtime.user(payload.sub);
    if (!session || !user || !user.enabled || session.userId !== user.id) return undefined;
    // A disabled (or deleted) client's tokens stop working at once, as in Keycloak.
    const client = runtime.client(typeof payload.azp === 'string' ? payload.azp : undefined);
    if (!client || !client.enabled) return undefined;
    if (typeof payload.jti === 'string' && runtime.revoked.has(payload.jti)) return undefined;
    return { payload, user, session };
  } catch {
    return undefined;
  }
}

/**
 * The request's access token, verified, and presented as its binding requires: a DPoP-bound token
 * (`cnf.jkt`) only with the `DPoP` scheme and a valid proof, any other only as `Bearer` — Keycloak refuses
 * a DPoP-bound token sent as a bearer token, so a stolen one is useless without the key.
 * `requestUrl` is the URL the client called (the proof's `htu`).
 */
export async function verifyRequestAccess(
  runtime: RealmRuntime,
  req: IncomingMessage,
  requestUrl: URL,
): Promise<{ access?: VerifiedAccess; scheme: PresentedToken['scheme'] }> {
  const presented = presentedToken(req);
  const access = await verifyAccessToken(runtime, presented?.token);
  const jkt = (access?.payload.cnf as { jkt?: unknown } | undefined)?.jkt;
  const scheme = presented?.scheme ?? 'Bearer';
  if (!access || !presented) return { scheme };
  if (typeof jkt !== 'string') return { access: presented.scheme === 'Bearer' ? access : undefined, scheme };
  const proven = presented.scheme === 'DPoP' && (await dpopProofValid(req, requestUrl, presented.token, jkt, runtime.dpopProofs));
  return { access: proven ? access : undefined, scheme };
}

/** `WWW-Authenticate` of a refused token, in the scheme it came with (Keycloak names the proof algorithms for DPoP). */
export function tokenChallenge(runtime: RealmRuntime, scheme: PresentedToken['scheme'], error?: string): string {
  const realm = `realm="${runtime.realm.name}"`;
  const detail = error ? `, error="invalid_token", error_description="${error}"` : '';
  return scheme === 'DPoP' ? `DPoP algs="${DPOP_ALGORITHMS.join(' ')}", ${realm}${detail}` : `Bearer ${realm}${detail}`;
}

export interface RefreshTokenFields {
  /** oidc-provider's opaque refresh token, carried as the first part of the JWT's `jti`. */
  handle: string;
  sid: string;
  sub: string;
  azp: string;
  scope: string;
  exp: number;
  iat: number;
  /** `cnf.jkt`: the thumbprint of the DPoP key the token is bound to (a public client's, refreshed with a proof) */
  jkt?: string;
}

/**
 * Keycloak-shaped refresh token (JWT, typ "Refresh", aud = issuer) around oidc-provider's
 * opaque one. keycloak-js decodes refresh tokens, so an opaque value would break it.
 */
export async function signRefreshToken(runtime: RealmRuntime, fields: Omit<RefreshTokenFields, 'iat'>): Promise<string> {
  return (
    new SignJWT({
      typ: 'Refresh',
      azp: fields.azp,
      sid: fields.sid,
      scope: fields.scope,
      ...(fields.jkt ? { cnf: { jkt: fields.jkt } } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: runtime.keys.kid })
      .setIssuer(runtime.issuer)
      .setAudience(runtime.issuer)
      .setSubject(fields.sub)
      // unique per token as Keycloak's (refresh-token reuse is told apart by it); the handle is its first part
      .setJti(`${fields.handle}.${crypto.randomUUID()}`)
      .setIssuedAt()
      .setExpirationTime(fields.exp)
      .sign(runtime.keys.privateKey)
  );
}

/**
 * The refresh token's fields if the realm signed it. Expiry is left to the caller, which checks
 * the session first: Keycloak says "Session not active" rather than "Token is not active" then.
 */
export async function verifyRefreshToken(runtime: RealmRuntime, token: string): Promise<RefreshTokenFields | undefined> {
  try {
    const verified = await compactVerify(token, runtime.keys.publicKey, { algorithms: ['RS256'] });
    const payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;
    if (payload.iss !== runtime.issuer || payload.aud !== runtime.issuer) return undefined;
    if (payload.typ !== 'Refresh' || !payload.jti || !payload.sub || typeof payload.sid !== 'string') return undefined;
    return {
      handle: payload.jti.split('.')[0] ?? '',
      sid: payload.sid,
      sub: payload.sub,
      azp: String(payload.azp),
      scope: String(payload.scope ?? ''),
      exp: payload.exp ?? 0,
      iat: payload.iat ?? 0,
      jkt: typeof (payload.cnf as { jkt?: unknown } | undefined)?.jkt === 'string' ? (payload.cnf as { jkt: string }).jkt : undefined,
    };
  } catch {
    return undefined;
  }
}

/**
 * An access token minted here for the password grant (oidc-provider has no password grant); bound to the key of the
 * request's DPoP proof (`cnf.jkt`) when it came with one.
 */
export async function signAccessToken(
  runtime: RealmRuntime,
  user: User,
  client: Client,
  session: SsoSession,
  scope: string,
  jkt?: string,
): Promise<string> {
  return new SignJWT({
    auth_time: session.started,
    ...accessTokenClaims({ realm: runtime.realm, user, client, sid: session.id, scope }),
    ...(jkt ? { cnf: { jkt }, typ: 'DPoP' } : {}), // Keycloak types a bound access token `DPoP`
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: runtime.keys.kid })
    .setIssuer(runtime.issuer)
    .setSubject(user.id)
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${runtime.realm.accessTokenLifespan}s`)
    .sign(runtime.keys.privateKey);
}

/**
 * The ID token minted here for the password grant when its scope has `openid`, as Keycloak 26.7.3 signs it there
 * (measured by the differential probe): header `typ` JWT, `aud` and `azp` the client, `sid`, `typ` "ID", `acr` "1",
 * `at_hash` of `accessToken` (left half of its SHA-256), the profile claims; no `auth_time`, no `nonce`. It lives as
 * long as the access token. What an RP-initiated logout names the session with (`id_token_hint`).
 */
export async function signIdToken(
  runtime: RealmRuntime,
  user: User,
  client: Client,
  session: SsoSession,
  accessToken: string,
): Promise<string> {
  const atHash = createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
  return new SignJWT({ azp: client.clientId, sid: session.id, at_hash: atHash, ...idTokenClaims(user) })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: runtime.keys.kid })
    .setIssuer(runtime.issuer)
    .setAudience(client.clientId)
    .setSubject(user.id)
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${runtime.realm.accessTokenLifespan}s`)
    .sign(runtime.keys.privateKey);
}
