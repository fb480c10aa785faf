// The demo realm file's client scopes, for the realms tests create through the admin API (dev-idp's testRealm()):
// the configs that sign in with `role-audiences` and the API scopes (decisions/0054, 0055) need them in the realm,
// or the provider refuses the sign-in with invalid_scope.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const REALM_FILE = join(__dirname, '../../../deploy/keycloak/gatehouse-realm.json');

/**
 * `realm` with the realm file's client scopes, its realm-wide default and optional scopes, and, for its
 * `clientId` client, the default and optional scopes the realm file gives `gatehouse-shell`.
 *
 * @param realm a realm representation (e.g. dev-idp's testRealm())
 * @param clientId the SPA client of `realm`
 */
function withDemoClientScopes<R extends { clients?: Array<{ clientId?: string }> }>(realm: R, clientId: string = 'gatehouse-shell'): R {
  const file: {
    clientScopes?: unknown[];
    defaultDefaultClientScopes?: string[];
    defaultOptionalClientScopes?: string[];
    clients?: Array<{ clientId?: string; defaultClientScopes?: string[]; optionalClientScopes?: string[] }>;
  } = JSON.parse(readFileSync(REALM_FILE, 'utf8'));
  const spa = (file.clients ?? []).find((client) => client.clientId === 'gatehouse-shell');
  if (!spa || !Array.isArray(file.clientScopes)) throw new Error(`${REALM_FILE} has no clientScopes or no gatehouse-shell client.`);
  return {
    ...realm,
    clientScopes: file.clientScopes,
    defaultDefaultClientScopes: file.defaultDefaultClientScopes,
    defaultOptionalClientScopes: file.defaultOptionalClientScopes,
    clients: (realm.clients ?? []).map((client) =>
      client.clientId === clientId
        ? { ...client, defaultClientScopes: spa.defaultClientScopes, optionalClientScopes: spa.optionalClientScopes }
        : client,
    ),
  };
}

export { withDemoClientScopes };
