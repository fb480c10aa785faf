import { parseLoaMap, type LoaMap } from '../sessions/acr.js';
import { builtinClients, builtinRealmRoles } from './builtins.js';
import { clientScopeLists, realmClientScopes } from './clientScopes.js';
import type { Client, Realm, Role, User } from './model.js';
import { REALM_DEFAULTS } from './model.js';
import { RealmFileError } from './RealmFileError.js';
import type { ClientRepresentation, RealmRepresentation, RoleRepresentation, UserRepresentation } from './representation.js';

/**
 * Turns a validated realm representation into the in-memory realm, applying Keycloak's
 * defaults for absent fields and adding the roles and clients Keycloak creates itself.
 * Cross-references (a user's roles, client roles of a client) must resolve, as on import.
 */
export function buildRealm(source: string, rep: RealmRepresentation): Realm {
  const name = rep.realm ?? '';
  const scopes = realmClientScopes(rep);
  const realm: Realm = {
    id: rep.id ?? name,
    name,
    displayName: rep.displayName,
    enabled: rep.enabled ?? true,
    accessTokenLifespan: rep.accessTokenLifespan ?? REALM_DEFAULTS.accessTokenLifespan,
    accessTokenLifespanForImplicitFlow: rep.accessTokenLifespanForImplicitFlow ?? REALM_DEFAULTS.accessTokenLifespanForImplicitFlow,
    ssoSessionIdleTimeout: rep.ssoSessionIdleTimeout ?? REALM_DEFAULTS.ssoSessionIdleTimeout,
    ssoSessionMaxLifespan: rep.ssoSessionMaxLifespan ?? REALM_DEFAULTS.ssoSessionMaxLifespan,
    revokeRefreshToken: rep.revokeRefreshToken ?? false,
    acrLoaMap: loaMap(source, 'attributes["acr.loa.map"]', rep.attributes?.['acr.loa.map']),
    locales: {
      enabled: rep.internationalizationEnabled ?? false,
      supported: rep.supportedLocales ?? [],
      default: rep.defaultLocale ?? 'en',
    },
    roles: builtinRealmRoles(name),
    clients: builtinClients().map((c) => ({ ...c, ...clientScopeLists({}, scopes) })),
    users: [],
    clientScopes: scopes.scopes,
    defaultDefaultClientScopes: scopes.defaults,
    defaultOptionalClientScopes: scopes.optional,
  };
  for (const role of rep.roles?.realm ?? []) {
    realm.roles = realm.roles.filter((r) => r.name !== role.name).concat(toRole(role));
  }
  (rep.clients ?? []).forEach((c, i) => {
    const client = toClient(c, realm);
    client.acrLoaMap = loaMap(source, `clients[${i}].attributes["acr.loa.map"]`, c.attributes?.['acr.loa.map']);
    const existing = realm.clients.findIndex((x) => x.clientId === client.clientId);
    if (existing >= 0 && !isBuiltin(client.clientId)) {
      throw new RealmFileError(source, `clients[${i}].clientId`, `duplicate client "${client.clientId}"`);
    }
    if (existing >= 0) client.roles = realm.clients[existing]!.roles;
    realm.clients = realm.clients.filter((x) => x.clientId !== client.clientId).concat(client);
  });
  for (const [clientId, roles] of Object.entries(rep.roles?.client ?? {})) {
    const client = realm.clients.find((c) => c.clientId === clientId);
    if (!client) throw new RealmFileError(source, `roles.client.${clientId}`, `no client "${clientId}" in clients[]`);
    for (const role of roles) client.roles = client.roles.filter((r) => r.name !== role.name).concat(toRole(role));
  }
  (rep.users ?? []).forEach((u, i) => {
    const user = toUser(u);
    if (realm.users.some((x) => x.username === user.username)) {
      throw new RealmFileError(source, `users[${i}].username`, `duplicate user "${user.username}"`);
    }
    user.realmRoles.forEach((role, j) => {
      if (!realm.roles.some((r) => r.name === role)) {
        throw new RealmFileError(source, `users[${i}].realmRoles[${j}]`, `no realm role "${role}" in roles.realm`);
      }
    });
    for (const [clientId, roles] of Object.entries(user.clientRoles)) {
      const client = realm.clients.find((c) => c.clientId === clientId);
      if (!client) throw new RealmFileError(source, `users[${i}].clientRoles.${clientId}`, `no client "${clientId}" in clients[]`);
      roles.forEach((role, j) => {
        if (!client.roles.some((r) => r.name === role)) {
          throw new RealmFileError(source, `users[${i}].clientRoles.${clientId}[${j}]`, `no role "${role}" in roles.client.${clientId}`);
        }
      });
    }
    realm.users.push(user);
  });
  return realm;
}

function isBuiltin(clientId: string): boolean {
  return clientId === 'account' || clientId === 'admin-cli';
}

export function toRole(rep: RoleRepresentation): Role {
  return { id: rep.id ?? crypto.randomUUID(), name: rep.name ?? '', description: rep.description };
}

/** The realm's client scopes, for a client's lists (see clientScopeLists). */
type RealmScopes = Pick<Realm, 'clientScopes' | 'defaultDefaultClientScopes' | 'defaultOptionalClientScopes'>;
const builtin = realmClientScopes({});
const BUILTIN_SCOPES: RealmScopes = {
  clientScopes: builtin.scopes,
  defaultDefaultClientScopes: builtin.defaults,
  defaultOptionalClientScopes: builtin.optional,
};

/** A client with Keycloak's import defaults for every absent field (its client scopes from `realm`'s). */
export function toClient(rep: ClientRepresentation, realm: RealmScopes = BUILTIN_SCOPES): Client {
  const attributes = rep.attributes ?? {};
  const logoutUris = attributes['post.logout.redirect.uris'];
  return {
    id: rep.id ?? crypto.randomUUID(),
    clientId: rep.clientId ?? '',
    name: rep.name,
    enabled: rep.enabled ?? true,
    publicClient: rep.publicClient ?? false,
    bearerOnly: rep.bearerOnly ?? false,
    secret: rep.secret ?? (rep.publicClient ? undefined : crypto.randomUUID()),
    standardFlowEnabled: rep.standardFlowEnabled ?? true,
    directAccessGrantsEnabled: rep.directAccessGrantsEnabled ?? false,
    redirectUris: rep.redirectUris ?? [],
    webOrigins: rep.webOrigins ?? [],
    pkceMethod: attributes['pkce.code.challenge.method'] || undefined,
    // Keycloak reads it with Boolean.parseBoolean: "true" in any case, anything else is false.
    dpopBoundAccessTokens: attributes['dpop.bound.access.tokens']?.toLowerCase() === 'true',
    // Keycloak: no attribute (as the admin API creates clients) means `+`, the valid redirect URIs.
    postLogoutRedirectUris: logoutUris ? logoutUris.split('##').filter(Boolean) : ['+'],
    backchannelLogoutUrl: attributes['backchannel.logout.url'] || undefined,
    // Keycloak reads both with Boolean.parseBoolean: "true" in any case, anything else (or nothing) is false; absent
    // stays undefined, so that the admin API shows only the attributes the client was given, as Keycloak's does.
    backchannelLogoutSessionRequired: flag(attributes['backchannel.logout.session.required']),
    backchannelLogoutRevokeOfflineTokens: flag(attributes['backchannel.logout.revoke.offline.tokens']),
    // Keycloak 26.7.3's OIDCLoginProtocolFactory.setupClientDefaults: absent is false for an imported or created client.
    frontchannelLogout: rep.frontchannelLogout ?? false,
    roles: [],
    acrLoaMap: {},
    ...clientScopeLists(rep, {
      scopes: realm.clientScopes,
      defaults: realm.defaultDefaultClientScopes,
      optional: realm.defaultOptionalClientScopes,
    }),
  };
}

/** A boolean attribute as Keycloak reads it ("true" in any case); undefined when absent. */
function flag(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value.toLowerCase() === 'true';
}

function loaMap(source: string, field: string, text: string | undefined): LoaMap {
  try {
    return parseLoaMap(text);
  } catch (error) {
    throw new RealmFileError(source, field, (error as Error).message);
  }
}

/** A user with Keycloak's import defaults: absent `enabled` means disabled, as in Keycloak. */
export function toUser(rep: UserRepresentation): User {
  const password = rep.credentials?.find((c) => (c.type ?? 'password') === 'password')?.value;
  return {
    id: rep.id ?? crypto.randomUUID(),
    username: (rep.username ?? '').toLowerCase(),
    enabled: rep.enabled ?? false,
    email: rep.email?.toLowerCase(),
    emailVerified: rep.emailVerified ?? false,
    firstName: rep.firstName,
    lastName: rep.lastName,
    password,
    realmRoles: [...(rep.realmRoles ?? [])],
    clientRoles: Object.fromEntries(Object.entries(rep.clientRoles ?? {}).map(([k, v]) => [k, [...v]])),
    createdTimestamp: Date.now(),
  };
}
