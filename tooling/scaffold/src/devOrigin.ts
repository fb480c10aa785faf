import fs from 'node:fs';
import path from 'node:path';

/**
 * The realm overlay of this checkout: addresses this machine adds to the demo realm's clients, git-ignored, read
 * by the dev identity provider at start and whenever it changes (`--realm-overlay`, decisions/0051).
 */
export const REALM_OVERLAY = 'deploy/keycloak/gatehouse-realm.local.json';

/** Which client of which realm must accept a remote's dev address. */
export interface DevOrigin {
  readonly realm: string;
  readonly clientId: string;
  readonly port: number;
}

interface OverlayClient {
  clientId: string;
  redirectUris?: string[];
  webOrigins?: string[];
  [key: string]: unknown;
}

/** A remote's dev origin and the redirect URI of the same form as the realm file's (`http://localhost:3001/*`). */
export function devAddresses(port: number): { origin: string; redirectUri: string } {
  const origin = `http://localhost:${port}`;
  return { origin, redirectUri: `${origin}/*` };
}

function readOverlay(file: string, realm: string): { realm: string; clients: OverlayClient[] } {
  if (!fs.existsSync(file)) return { realm, clients: [] };
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${REALM_OVERLAY} is not valid JSON (${(error as Error).message}); fix it or delete it, then run this again.`, {
      cause: error,
    });
  }
  const overlay = json as { realm?: unknown; clients?: unknown };
  if (typeof json !== 'object' || json === null || overlay.realm !== realm || !Array.isArray(overlay.clients)) {
    throw new Error(
      `${REALM_OVERLAY} is not an overlay of realm "${realm}" ({ "realm": "${realm}", "clients": [ … ] }); fix it or delete it, then run this again.`,
    );
  }
  return { realm, clients: overlay.clients as OverlayClient[] };
}

/**
 * The overlay's new text with the remote's dev origin (web origin and redirect URI) added to the client, or
 * `null` when it is there already (running the scaffold twice adds it once). Throws, saying what to do, when
 * the existing file is not an overlay of that realm; nothing is written here.
 */
export function overlayWithDevOrigin(root: string, devOrigin: DevOrigin): string | null {
  const overlay = readOverlay(path.join(root, REALM_OVERLAY), devOrigin.realm);
  const { origin, redirectUri } = devAddresses(devOrigin.port);
  let client = overlay.clients.find((c) => c.clientId === devOrigin.clientId);
  if (!client) overlay.clients.push((client = { clientId: devOrigin.clientId, redirectUris: [], webOrigins: [] }));
  const redirectUris = (client.redirectUris ??= []);
  const webOrigins = (client.webOrigins ??= []);
  if (redirectUris.includes(redirectUri) && webOrigins.includes(origin)) return null;
  if (!redirectUris.includes(redirectUri)) redirectUris.push(redirectUri);
  if (!webOrigins.includes(origin)) webOrigins.push(origin);
  return `${JSON.stringify(overlay, null, 2)}\n`;
}

/** Writes the overlay text from {@link overlayWithDevOrigin}; returns the file's path relative to the root. */
export function writeOverlay(root: string, text: string): string {
  fs.writeFileSync(path.join(root, REALM_OVERLAY), text);
  return REALM_OVERLAY;
}
