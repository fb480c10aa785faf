import { RealmFileError } from './RealmFileError.js';
import {
  IGNORED_CLIENT_FIELDS,
  IGNORED_CLIENT_SCOPE_FIELDS,
  IGNORED_CREDENTIAL_FIELDS,
  IGNORED_REALM_FIELDS,
  IGNORED_ROLE_FIELDS,
  IGNORED_USER_FIELDS,
} from './keycloakFields.js';
import type { RealmRepresentation } from './representation.js';

type Kind = 'string' | 'boolean' | 'integer' | 'seconds' | 'strings' | 'object' | 'array' | 'stringMap' | 'stringListMap';
type Shape = Record<string, Kind>;

const REALM: Shape = {
  realm: 'string',
  enabled: 'boolean',
  displayName: 'string',
  accessTokenLifespan: 'seconds',
  accessTokenLifespanForImplicitFlow: 'seconds',
  ssoSessionIdleTimeout: 'seconds',
  ssoSessionMaxLifespan: 'seconds',
  revokeRefreshToken: 'boolean',
  roles: 'object',
  clients: 'array',
  users: 'array',
  attributes: 'stringMap',
  internationalizationEnabled: 'boolean',
  supportedLocales: 'strings',
  defaultLocale: 'string',
  browserFlow: 'string',
  authenticationFlows: 'array',
  authenticatorConfig: 'array',
  clientScopes: 'array',
  defaultDefaultClientScopes: 'strings',
  defaultOptionalClientScopes: 'strings',
};
const CLIENT_SCOPE: Shape = {
  name: 'string',
  description: 'string',
  protocol: 'string',
  attributes: 'stringMap',
  protocolMappers: 'array',
};
const PROTOCOL_MAPPER: Shape = { name: 'string', protocol: 'string', protocolMapper: 'string', config: 'stringMap' };
const CLIENT: Shape = {
  clientId: 'string',
  name: 'string',
  enabled: 'boolean',
  publicClient: 'boolean',
  bearerOnly: 'boolean',
  secret: 'string',
  standardFlowEnabled: 'boolean',
  implicitFlowEnabled: 'boolean',
  directAccessGrantsEnabled: 'boolean',
  redirectUris: 'strings',
  webOrigins: 'strings',
  attributes: 'stringMap',
  defaultClientScopes: 'strings',
  optionalClientScopes: 'strings',
};
const USER: Shape = {
  username: 'string',
  enabled: 'boolean',
  email: 'string',
  emailVerified: 'boolean',
  firstName: 'string',
  lastName: 'string',
  credentials: 'array',
  realmRoles: 'strings',
  clientRoles: 'stringListMap',
};
const ROLE: Shape = { name: 'string', description: 'string' };
const CREDENTIAL: Shape = { type: 'string', value: 'string' };
const FLOW: Shape = {
  alias: 'string',
  description: 'string',
  providerId: 'string',
  topLevel: 'boolean',
  builtIn: 'boolean',
  authenticationExecutions: 'array',
};
const EXECUTION: Shape = {
  authenticator: 'string',
  authenticatorFlow: 'boolean',
  flowAlias: 'string',
  requirement: 'string',
  priority: 'integer',
  authenticatorConfig: 'string',
};
const AUTHENTICATOR_CONFIG: Shape = { alias: 'string', config: 'stringMap' };
/** Export fields of flows that Keycloak fills in itself (ids, a misspelt copy of authenticatorFlow). */
const IGNORED_FLOW_FIELDS = new Set(['id', 'autheticatorFlow', 'userSetupAllowed']);

/** What validation found besides errors: one line per problem the server can live with. */
export interface ValidationResult {
  realm: RealmRepresentation;
  warnings: string[];
}

/**
 * Checks a parsed realm file against the fields the dev IdP implements. Throws a
 * {@link RealmFileError} naming `source` and the field for a wrong type or a missing
 * required field; unknown fields become warnings, Keycloak fields we do not implement
 * are summarised in one warning line.
 */
export function validateRealm(source: string, json: unknown): ValidationResult {
  const unknown: string[] = [];
  const ignored = new Set<string>();
  const check = (value: unknown, path: string, shape: Shape, known: Set<string>): Record<string, unknown> => {
    if (!isObject(value)) throw new RealmFileError(source, path || '(top level)', 'expected a JSON object');
    for (const [key, field] of Object.entries(value)) {
      const kind = shape[key];
      const at = path ? `${path}.${key}` : key;
      if (!kind) {
        if (known.has(key)) ignored.add(key);
        else unknown.push(at);
        continue;
      }
      if (field === null || field === undefined) continue;
      checkKind(source, at, kind, field);
    }
    return value;
  };

  const realm = check(json, '', REALM, IGNORED_REALM_FIELDS);
  if (typeof realm.realm !== 'string' || realm.realm.trim() === '') {
    throw new RealmFileError(source, 'realm', 'required: the realm name (a non-empty string)');
  }
  if (!/^[A-Za-z0-9._-]+$/.test(realm.realm) || /^\.+$/.test(realm.realm)) {
    throw new RealmFileError(source, 'realm', `"${realm.realm}" may use only letters, digits, ".", "_" and "-", and not only dots`);
  }
  const roles =
    realm.roles === undefined || realm.roles === null
      ? undefined
      : check(realm.roles, 'roles', { realm: 'array', client: 'object' }, new Set());
  ((roles?.realm ?? []) as unknown[]).forEach((role, i) => checkRole(role, `roles.realm[${i}]`));
  for (const [clientId, list] of Object.entries((roles?.client ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(list)) throw new RealmFileError(source, `roles.client.${clientId}`, 'expected an array of roles');
    list.forEach((role, i) => checkRole(role, `roles.client.${clientId}[${i}]`));
  }
  ((realm.clients ?? []) as unknown[]).forEach((client, i) => {
    const c = check(client, `clients[${i}]`, CLIENT, IGNORED_CLIENT_FIELDS);
    requireString(c.clientId, `clients[${i}].clientId`);
    if (c.implicitFlowEnabled === true) {
      throw new RealmFileError(
        source,
        `clients[${i}].implicitFlowEnabled`,
        'the dev IdP has no implicit flow (Gatehouse signs in with the code flow and PKCE): leave it out or set it to false',
      );
    }
  });
  ((realm.clientScopes ?? []) as unknown[]).forEach((scope, i) => {
    const s = check(scope, `clientScopes[${i}]`, CLIENT_SCOPE, IGNORED_CLIENT_SCOPE_FIELDS);
    requireString(s.name, `clientScopes[${i}].name`);
    ((s.protocolMappers ?? []) as unknown[]).forEach((mapper, j) => {
      const m = check(mapper, `clientScopes[${i}].protocolMappers[${j}]`, PROTOCOL_MAPPER, IGNORED_CLIENT_SCOPE_FIELDS);
      requireString(m.protocolMapper, `clientScopes[${i}].protocolMappers[${j}].protocolMapper`);
    });
  });
  ((realm.users ?? []) as unknown[]).forEach((user, i) => {
    const u = check(user, `users[${i}]`, USER, IGNORED_USER_FIELDS);
    requireString(u.username, `users[${i}].username`);
    ((u.credentials ?? []) as unknown[]).forEach((cred, j) => {
      const c = check(cred, `users[${i}].credentials[${j}]`, CREDENTIAL, IGNORED_CREDENTIAL_FIELDS);
      if (c.type === 'password' && typeof c.value !== 'string') {
        throw new RealmFileError(source, `users[${i}].credentials[${j}].value`, 'required for a password credential (plain text)');
      }
    });
  });

  ((realm.authenticationFlows ?? []) as unknown[]).forEach((flow, i) => {
    const f = check(flow, `authenticationFlows[${i}]`, FLOW, IGNORED_FLOW_FIELDS);
    requireString(f.alias, `authenticationFlows[${i}].alias`);
    ((f.authenticationExecutions ?? []) as unknown[]).forEach((execution, j) => {
      const at = `authenticationFlows[${i}].authenticationExecutions[${j}]`;
      const e = check(execution, at, EXECUTION, IGNORED_FLOW_FIELDS);
      if (e.requirement !== undefined && !REQUIREMENTS.includes(e.requirement as string)) {
        throw new RealmFileError(
          source,
          `${at}.requirement`,
          `expected one of ${REQUIREMENTS.join(', ')}, got ${JSON.stringify(e.requirement)}`,
        );
      }
    });
  });
  ((realm.authenticatorConfig ?? []) as unknown[]).forEach((config, i) => {
    const c = check(config, `authenticatorConfig[${i}]`, AUTHENTICATOR_CONFIG, IGNORED_FLOW_FIELDS);
    requireString(c.alias, `authenticatorConfig[${i}].alias`);
  });

  const warnings = unknown.map((field) => `${source}: unknown field ${field} (ignored)`);
  if (ignored.size > 0) {
    warnings.push(`${source}: ignoring Keycloak settings the dev IdP does not implement: ${[...ignored].sort().join(', ')}`);
  }
  return { realm: realm as RealmRepresentation, warnings };

  function checkRole(role: unknown, path: string): void {
    const r = check(role, path, ROLE, IGNORED_ROLE_FIELDS);
    requireString(r.name, `${path}.name`);
  }

  function requireString(value: unknown, path: string): void {
    if (typeof value !== 'string' || value === '') throw new RealmFileError(source, path, 'required (a non-empty string)');
  }
}

function checkKind(source: string, at: string, kind: Kind, field: unknown): void {
  const fail = (expected: string): never => {
    throw new RealmFileError(source, at, `expected ${expected}, got ${JSON.stringify(field)}`);
  };
  switch (kind) {
    case 'string':
      if (typeof field !== 'string') fail('a string');
      break;
    case 'boolean':
      if (typeof field !== 'boolean') fail('true or false');
      break;
    case 'integer':
      if (!Number.isInteger(field)) fail('a whole number');
      break;
    case 'seconds':
      if (!validSeconds(field)) fail(`a positive whole number of seconds (at most ${MAX_SECONDS})`);
      break;
    case 'strings':
      if (!Array.isArray(field) || !field.every((s) => typeof s === 'string')) fail('an array of strings');
      break;
    case 'object':
      if (!isObject(field)) fail('a JSON object');
      break;
    case 'array':
      if (!Array.isArray(field)) fail('an array');
      break;
    case 'stringMap':
      if (!isObject(field) || !Object.values(field).every((s) => typeof s === 'string')) fail('an object of strings');
      break;
    case 'stringListMap':
      if (!isObject(field) || !Object.values(field).every((l) => Array.isArray(l) && l.every((s) => typeof s === 'string'))) {
        fail('an object of string arrays');
      }
      break;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keycloak's execution requirements. */
const REQUIREMENTS = ['REQUIRED', 'ALTERNATIVE', 'CONDITIONAL', 'DISABLED'];

/** Keycloak stores lifespans as Java ints; beyond that a date computed from one is meaningless. */
export const MAX_SECONDS = 2_147_483_647;

export function validSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_SECONDS;
}
