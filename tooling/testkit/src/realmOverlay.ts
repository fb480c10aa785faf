// This checkout's realm overlay (deploy/keycloak/gatehouse-realm.local.json: redirect URIs and web origins that
// `npm run new-remote` adds to the demo realm's clients; decisions/0051) applied to a running Keycloak through its
// admin API. The dev provider reads the file itself; Keycloak imports its realm only into a new database, so
// `npm run keycloak` (and `npm start -- --idp keycloak`) add the overlay's addresses at each start instead.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signInAsAdmin } from './admin';

const REALM_OVERLAY = join(__dirname, '../../../deploy/keycloak/gatehouse-realm.local.json');

export interface OverlayClient {
  clientId: string;
  redirectUris: string[];
  webOrigins: string[];
}

const REALM_FILE = join(__dirname, '../../../deploy/keycloak/gatehouse-realm.json');

/**
 * The overlay at `file`, or null when there is none, checked by the dev provider's own parser (dev-idp's
 * `parseOverlay`: absolute http(s) redirect URIs with at most a trailing `/*`, exact origins, no other field), so
 * what reaches Keycloak's admin API is what the dev provider accepts. Beyond it, as the dev provider applies an
 * overlay only to the realm files it loaded: the realm must be the demo realm file's (never `master`) and every
 * client one of that file's clients.
 *
 * @param options the realm file the overlay adds to
 */
async function readRealmOverlay(
  file: string,
  { realmFile = REALM_FILE }: { realmFile?: string } = {},
): Promise<{ realm: string; clients: OverlayClient[] } | null> {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const fix = `${file}: expected { "realm": "<name>", "clients": [{ "clientId": "…", "redirectUris": […], "webOrigins": […] }] }; fix it or delete it`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${fix} (${(error as Error).message})`, { cause: error });
  }
  // dev-idp is TypeScript run through tsx (a dependency of this workspace), as its own bin does.
  const { tsImport } = await import('tsx/esm/api');
  const parser = pathToFileURL(require.resolve('@gatehouse/dev-idp/realm-overlay')).href;
  const { parseOverlay } = await tsImport(parser, pathToFileURL(__filename).href);
  let overlay: { realm: string; clients: OverlayClient[] };
  try {
    overlay = parseOverlay(basename(file), json);
  } catch (error) {
    throw new Error(`${(error as Error).message} (${fix})`, { cause: error });
  }
  const realm = JSON.parse(readFileSync(realmFile, 'utf8'));
  if (overlay.realm !== realm.realm)
    throw new Error(
      `${file}: realm: "${overlay.realm}" is not the realm of ${basename(realmFile)} ("${realm.realm}"); an overlay only adds to it`,
    );
  const clients = new Set((realm.clients ?? []).map((c: { clientId: string }) => c.clientId));
  for (const [i, client] of overlay.clients.entries()) {
    if (!clients.has(client.clientId))
      throw new Error(
        `${file}: clients[${i}].clientId: "${client.clientId}" is not a client of ${basename(realmFile)} (${[...clients].join(', ')}); an overlay only adds to them`,
      );
  }
  return overlay;
}

/**
 * Adds the overlay's redirect URIs and web origins to the clients of a running provider (each once; nothing is
 * removed), signed in as its administrator. Resolves to what it added, e.g. `gatehouse-shell web origin http://localhost:3004`.
 *
 * @param baseUrl e.g. http://localhost:8080
 */
async function applyRealmOverlay(
  baseUrl: string,
  { file = REALM_OVERLAY, realmFile, ...credentials }: { file?: string; realmFile?: string; username?: string; password?: string } = {},
): Promise<string[]> {
  const overlay = await readRealmOverlay(file, { realmFile });
  if (!overlay || overlay.clients.length === 0) return [];
  const admin = await signInAsAdmin(baseUrl, credentials);
  const added: string[] = [];
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

export { REALM_OVERLAY, applyRealmOverlay, readRealmOverlay };
