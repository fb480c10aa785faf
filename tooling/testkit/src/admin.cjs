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

/**
 * Ends every session of a user at the provider, as an administrator's "Sign out" of that user does
 * (`POST /admin/realms/{realm}/users/{id}/logout`). The user's tabs learn of it only through the provider.
 *
 * @param {string} baseUrl e.g. http://localhost:8080
 * @param {string} realm
 * @param {string} username
 * @returns {Promise<void>}
 */
async function endSessionsOf(baseUrl, realm, username) {
  const admin = await signInAsAdmin(baseUrl);
  const [user] = await admin.users.find({ realm, username, exact: true });
  if (!user?.id) throw new Error(`no user "${username}" in realm "${realm}" at ${baseUrl}`);
  await admin.users.logout({ realm, id: user.id });
}

module.exports = { signInAsAdmin, endSessionsOf };
