import { readFileSync } from 'node:fs';

import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';
import ajvErrorsModule from 'ajv-errors';

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

/** Export fields of flows that Keycloak fills in itself (ids, a misspelt copy of authenticatorFlow). */
const IGNORED_FLOW_FIELDS = new Set(['id', 'autheticatorFlow', 'userSetupAllowed']);

/**
 * The fields the dev IdP implements and their types: realm.schema.json (JSON Schema, draft-07, as the shell's
 * config is checked, decisions/0009), compiled once with Ajv; its `errorMessage`s (ajv-errors) are the texts
 * a person reads. allErrors: every unknown field becomes a warning, not only the first.
 */
const SCHEMA: unknown = JSON.parse(readFileSync(new URL('./realm.schema.json', import.meta.url), 'utf8'));
// verbose: an error carries the schema object it came from, whose `title` names the kind of object refused.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
// ajv-errors is CommonJS: Node's default import is its module.exports, which TypeScript types as the module.
(ajvErrorsModule as unknown as { default: (ajv: Ajv) => Ajv }).default(ajv);
const checkRealm = ajv.compile(SCHEMA as object);

/** The Keycloak fields known but not implemented, by the `title` of the schema object that refused them. */
const IGNORED_BY_DEFINITION: Record<string, ReadonlySet<string>> = {
  [(SCHEMA as { title: string }).title]: IGNORED_REALM_FIELDS,
  client: IGNORED_CLIENT_FIELDS,
  user: IGNORED_USER_FIELDS,
  role: IGNORED_ROLE_FIELDS,
  credential: IGNORED_CREDENTIAL_FIELDS,
  clientScope: IGNORED_CLIENT_SCOPE_FIELDS,
  protocolMapper: IGNORED_CLIENT_SCOPE_FIELDS,
  flow: IGNORED_FLOW_FIELDS,
  execution: IGNORED_FLOW_FIELDS,
  authenticatorConfig: IGNORED_FLOW_FIELDS,
};

/** What validation found besides errors: one line per problem the server can live with. */
export interface ValidationResult {
  realm: RealmRepresentation;
  warnings: string[];
}

/**
 * Checks a parsed realm file against the fields the dev IdP implements (realm.schema.json). Throws a
 * {@link RealmFileError} naming `source` and the field for a wrong type or a missing required field; unknown
 * fields become warnings, Keycloak fields we do not implement are summarised in one warning line.
 */
export function validateRealm(source: string, json: unknown): ValidationResult {
  const unknown: string[] = [];
  const ignored = new Set<string>();
  if (!checkRealm(json)) {
    const errors = checkRealm.errors ?? [];
    for (const error of errors.filter((e) => e.keyword === 'additionalProperties')) {
      const key = String(error.params.additionalProperty);
      const definition = String((error.parentSchema as { title?: unknown } | undefined)?.title);
      if (IGNORED_BY_DEFINITION[definition]?.has(key)) ignored.add(key);
      else unknown.push(fieldName(`${error.instancePath}/${key}`));
    }
    const problem = errors.find((e) => e.keyword !== 'additionalProperties');
    if (problem) throw problemOf(source, problem, json);
  }
  const realm = json as RealmRepresentation & { realm: string };
  if (!/^[A-Za-z0-9._-]+$/.test(realm.realm) || /^\.+$/.test(realm.realm)) {
    throw new RealmFileError(source, 'realm', `"${realm.realm}" may use only letters, digits, ".", "_" and "-", and not only dots`);
  }
  const warnings = unknown.map((field) => `${source}: unknown field ${field} (ignored)`);
  if (ignored.size > 0) {
    warnings.push(`${source}: ignoring Keycloak settings the dev IdP does not implement: ${[...ignored].sort().join(', ')}`);
  }
  return { realm, warnings };
}

/** The error a schema problem becomes: the field (a missing one included) and the schema's text, with the value. */
function problemOf(source: string, error: ErrorObject, json: unknown): RealmFileError {
  // ajv-errors wraps the errors its texts replace; the first one says where (a missing property is a field too)
  const original = error.keyword === 'errorMessage' ? ((error.params.errors as ErrorObject[] | undefined)?.[0] ?? error) : error;
  const missing = original.keyword === 'required' ? String(original.params.missingProperty) : undefined;
  const pointer = missing === undefined ? error.instancePath : `${error.instancePath}/${missing}`;
  const message = error.message ?? 'is not valid';
  const value = valueAt(json, error.instancePath);
  const got = missing === undefined && /^(expected|must)\b/.test(message) ? `, got ${JSON.stringify(value)}` : '';
  return new RealmFileError(source, fieldName(pointer), `${message}${got}`);
}

/** A JSON pointer (`/clients/1/clientId`) as the field's name (`clients[1].clientId`); '' is the top level. */
function fieldName(pointer: string): string {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const name = segments.reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : out === '' ? s : `${out}.${s}`), '');
  return name === '' ? '(top level)' : name;
}

function valueAt(json: unknown, pointer: string): unknown {
  return fieldName(pointer) === '(top level)'
    ? json
    : pointer
        .split('/')
        .slice(1)
        .reduce<unknown>((value, s) => (value as Record<string, unknown> | undefined)?.[s.replace(/~1/g, '/').replace(/~0/g, '~')], json);
}

/** Keycloak stores lifespans as Java ints; beyond that a date computed from one is meaningless (realm.schema.json's too). */
export const MAX_SECONDS = 2_147_483_647;

export function validSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_SECONDS;
}
