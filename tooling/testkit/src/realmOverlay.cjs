'use strict';
// This checkout's realm overlay (deploy/keycloak/gatehouse-realm.local.json: redirect URIs and web origins that
// `npm run new-remote` adds to the demo realm's clients; decisions/0051) applied to a running Keycloak through its
// admin API. The dev provider reads the file itself; Keycloak imports its realm only into a new database, so
// `npm run keycloak` (and `npm start -- --idp keycloak`) add the overlay's addresses at each start instead.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { signInAsAdmin } = require('./admin.cjs');

const REALM_OVERLAY = join(__dirname, '../../../deploy/keycloak/gatehouse-realm.local.json');

/**
 * @typedef {object} OverlayClient
 * @property {string} clientId
 * @property {string[]} redirectUris
 * @property {string[]} webOrigins
 */

/** @param {unknown} value */
const isStrings = (value) => value === undefined || (Array.isArray(value) && value.every((item) => typeof item === 'string'));

/**
 * The overlay at `file`, or null when there is none. Its fields are checked as far as applying them needs; the
 * addresses themselves are checked by the provider (the dev provider's loader, Keycloak's admin API).
 *
 * @param {string} file
 * @returns {{ realm: string, clients: OverlayClient[] } | null}
 */
function readRealmOverlay(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
    throw error;
  }
  const fix = `${file}: expected { "realm": "<name>", "clients": [{ "clientId": "…", "redirectUris": […], "webOrigins": […] }] }; fix it or delete it`;
  /** @type {any} */
  let json;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${fix} (${/** @type {Error} */ (error).message})`, { cause: error });
  }
  const clients = json?.clients ?? [];
  if (typeof json?.realm !== 'string' || !Array.isArray(clients)) throw new Error(fix);
  for (const client of clients) {
    if (typeof client?.clientId !== 'string' || !isStrings(client.redirectUris) || !isStrings(client.webOrigins)) throw new Error(fix);
  }
  return {
    realm: json.realm,
    clients: clients.map((/** @type {any} */ c) => ({
      clientId: c.clientId,
      redirectUris: c.redirectUris ?? [],
      webOrigins: c.webOrigins ?? [],
    })),
  };
}

/**
 * Adds the overlay's redirect URIs and web origins to the clients of a running provider (each once; nothing is
 * removed), signed in as its administrator. Resolves to what it added, e.g. `gatehouse-shell web origin http://localhost:3004`.
 *
 * @param {string} baseUrl e.g. http://localhost:8080
 * @param {{ file?: string, username?: string, password?: string }} [options]
 * @returns {Promise<string[]>}
 */
async function applyRealmOverlay(baseUrl, { file = REALM_OVERLAY, ...credentials } = {}) {
  const overlay = readRealmOverlay(file);
  if (!overlay || overlay.clients.length === 0) return [];
  const admin = await signInAsAdmin(baseUrl, credentials);
  /** @type {string[]} */
  const added = [];
  for (const entry of overlay.clients) {
    const [client] = await admin.clients.find({ realm: overlay.realm, clientId: entry.clientId });
    if (!client?.id) throw new Error(`${file}: realm "${overlay.realm}" at ${baseUrl} has no client "${entry.clientId}"`);
    const before = added.length;
    const redirectUris = [...(client.redirectUris ?? [])];
    const webOrigins = [...(client.webOrigins ?? [])];
    for (const uri of entry.redirectUris.filter((u) => !redirectUris.includes(u))) {
      redirectUris.push(uri);
      added.push(`${entry.clientId} redirect URI ${uri}`);
    }
    for (const origin of entry.webOrigins.filter((o) => !webOrigins.includes(o))) {
      webOrigins.push(origin);
      added.push(`${entry.clientId} web origin ${origin}`);
    }
    if (added.length > before) await admin.clients.update({ realm: overlay.realm, id: client.id }, { ...client, redirectUris, webOrigins });
  }
  return added;
}

module.exports = { REALM_OVERLAY, applyRealmOverlay, readRealmOverlay };
