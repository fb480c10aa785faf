'use strict';
// The demo realm file's client scopes, for the realms tests create through the admin API (dev-idp's testRealm()):
// the configs that sign in with `role-audiences` and the API scopes (decisions/0054, 0055) need them in the realm,
// or the provider refuses the sign-in with invalid_scope.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const REALM_FILE = join(__dirname, '../../../deploy/keycloak/gatehouse-realm.json');

/**
 * `realm` with the realm file's client scopes, its realm-wide default and optional scopes, and, for its
 * `clientId` client, the default and optional scopes the realm file gives `gatehouse-shell`.
 *
 * @template {{ clients?: Array<{ clientId?: string }> }} R
 * @param {R} realm a realm representation (e.g. dev-idp's testRealm())
 * @param {string} [clientId] the SPA client of `realm`
 * @returns {R}
 */
function withDemoClientScopes(realm, clientId = 'gatehouse-shell') {
  /** @type {{ clientScopes?: unknown[], defaultDefaultClientScopes?: string[], defaultOptionalClientScopes?: string[], clients?: Array<{ clientId?: string, defaultClientScopes?: string[], optionalClientScopes?: string[] }> }} */
  const file = JSON.parse(readFileSync(REALM_FILE, 'utf8'));
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

module.exports = { withDemoClientScopes };
