import { generateKeyPairSync } from 'node:crypto';
import type { RealmRepresentation } from './realm/representation.js';

/** One of a realm's components as Keycloak reads it: each config value a list (a MultivaluedHashMap). */
export interface ComponentRepresentation {
  name: string;
  providerId: string;
  config: Record<string, string[]>;
}

/** What a test chooses about its realm; everything else is the demo realm's shape. */
export interface TestRealmOptions {
  /** the public SPA client (default `gatehouse-shell`, as in the demo realm) */
  clientId?: string;
  /** the origin of the test's page: its redirect URIs are `${origin}/*`, its web origins `+` */
  origin?: string;
  /** seconds (default 300) */
  accessTokenLifespan?: number;
  /** Keycloak's "Revoke Refresh Token": each refresh token can be used once (default false) */
  revokeRefreshToken?: boolean;
}

/** The two RSA keys every test realm of this process carries (PKCS #8 PEM): made once, on first use. */
let rsaKeys: { signing: string; encryption: string } | undefined;

function rsaPrivateKey(): string {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  }).privateKey;
}

/**
 * The key providers of a test realm: the four keys Keycloak gives a new realm (RS256 signing and RSA-OAEP
 * encryption, RSA 2048 with a certificate Keycloak makes for the realm; HS512 and AES secrets it generates),
 * with the two RSA keys brought along. Keycloak makes none of its own once a realm names a key provider, and
 * generating the two RSA keys was 1.8 of the 2.6 CPU-seconds a realm's creation cost a quick-start Keycloak
 * (decisions/0105). The dev IdP ignores `components` and makes its own signing key, as before.
 */
export function testRealmKeys(): Record<'org.keycloak.keys.KeyProvider', ComponentRepresentation[]> {
  rsaKeys ??= { signing: rsaPrivateKey(), encryption: rsaPrivateKey() };
  return {
    'org.keycloak.keys.KeyProvider': [
      { name: 'rsa', providerId: 'rsa', config: { privateKey: [rsaKeys.signing], algorithm: ['RS256'], priority: ['100'] } },
      {
        name: 'rsa-enc',
        providerId: 'rsa-enc',
        config: { privateKey: [rsaKeys.encryption], algorithm: ['RSA-OAEP'], priority: ['100'] },
      },
      { name: 'hmac-generated-hs512', providerId: 'hmac-generated', config: { algorithm: ['HS512'], priority: ['100'] } },
      { name: 'aes-generated', providerId: 'aes-generated', config: { priority: ['100'] } },
    ],
  };
}

/**
 * A small realm shaped like the demo one — realm roles `user`, `admin`, client role `reports/viewer`, a
 * public PKCE client and the user alice/alice with all three — under a name of the test's choosing, so
 * each test can import its own through `startDevIdp({ realms })` or the admin API. Its keys: testRealmKeys().
 *
 * @example
 * await admin.realms.create(testRealm('t-1', { origin: app.origin, accessTokenLifespan: 8 }));
 */
export function testRealm(name: string, options: TestRealmOptions = {}): RealmRepresentation {
  const { clientId = 'gatehouse-shell', origin = 'http://localhost:3000', accessTokenLifespan = 300, revokeRefreshToken = false } = options;
  const realm: RealmRepresentation = {
    realm: name,
    enabled: true,
    accessTokenLifespan,
    ...(revokeRefreshToken ? { revokeRefreshToken } : {}),
    roles: { realm: [{ name: 'user' }, { name: 'admin' }], client: { reports: [{ name: 'viewer' }] } },
    clients: [
      {
        clientId,
        enabled: true,
        publicClient: true,
        standardFlowEnabled: true,
        redirectUris: [`${origin}/*`],
        webOrigins: ['+'],
        attributes: { 'pkce.code.challenge.method': 'S256', 'post.logout.redirect.uris': '+' },
      },
      { clientId: 'reports', enabled: true, bearerOnly: true },
    ],
    users: [
      {
        username: 'alice',
        enabled: true,
        email: 'alice@example.com',
        emailVerified: true,
        firstName: 'Alice',
        lastName: 'Anders',
        credentials: [{ type: 'password', value: 'alice' }],
        realmRoles: [`default-roles-${name}`, 'user', 'admin'],
        clientRoles: { reports: ['viewer'] },
      },
    ],
  };
  // Not a field of RealmRepresentation: keycloak-admin-client 26 types `components` as one component per type with
  // string values, which Keycloak refuses ("unable to read contents from stream"); it reads lists, as here.
  return Object.assign(realm, { components: testRealmKeys() });
}
