'use strict';
// The admin REST API, signed in as the provider's administrator: how browser tests make and remove
// their own realms (as keycloak-js's own tests do), against the dev provider or a real Keycloak.

/**
 * An admin API client for the provider at `baseUrl`, signed in to realm `master` with the password
 * grant of `admin-cli` (the dev provider's default administrator is admin/admin, as in a fresh Keycloak
 * started with KC_BOOTSTRAP_ADMIN_USERNAME=admin).
 *
 * @param {string} baseUrl e.g. http://localhost:8080
 * @param {{ username?: string, password?: string }} [credentials]
 * @returns {Promise<import('@keycloak/keycloak-admin-client').default>}
 */
async function signInAsAdmin(baseUrl, { username = 'admin', password = 'admin' } = {}) {
  // Imported when needed: the package is ESM-only and large, and most users of this kit never call it.
  const { default: KcAdminClient } = await import('@keycloak/keycloak-admin-client');
  const admin = new KcAdminClient({ baseUrl, realmName: 'master' });
  await admin.auth({ grantType: 'password', clientId: 'admin-cli', username, password });
  return admin;
}

module.exports = { signInAsAdmin };
