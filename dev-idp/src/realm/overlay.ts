import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

import type { Realm } from './model.js';
import { RealmFileError } from './RealmFileError.js';

/**
 * A realm overlay: this machine's additions to clients of a realm file, e.g. the dev address of a remote that
 * lives in its own repository (decisions/0051). It only **adds** redirect URIs and web origins to clients
 * the realm already has; every other setting stays the realm file's.
 *
 * @example
 * { "realm": "gatehouse",
 *   "clients": [{ "clientId": "gatehouse-shell", "redirectUris": ["http://localhost:3004/*"], "webOrigins": ["http://localhost:3004"] }] }
 */
export interface RealmOverlay {
  realm: string;
  clients: { clientId: string; redirectUris: string[]; webOrigins: string[] }[];
}

const CLIENT_FIELDS = new Set(['clientId', 'redirectUris', 'webOrigins']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An absolute http(s) URL, optionally ending in Keycloak's `/*` (the realm file's own form); no other wildcard. */
function redirectUriProblem(value: string): string | null {
  const bare = value.endsWith('/*') ? value.slice(0, -1) : value;
  if (bare.includes('*')) return `"${value}": only a trailing /* is allowed (as in the realm file); write the address exactly`;
  try {
    const url = new URL(bare);
    if (url.protocol === 'http:' || url.protocol === 'https:') return null;
  } catch {
    // reported below
  }
  return `"${value}": not an absolute http(s) URL, e.g. "http://localhost:3004/*"`;
}

/** Exactly an origin: scheme, host and port, nothing else (no `*`, no `+`, no path). */
function webOriginProblem(value: string): string | null {
  try {
    if (new URL(value).origin === value) return null;
  } catch {
    // reported below
  }
  return `"${value}": not an origin; write scheme, host and port only, e.g. "http://localhost:3004"`;
}

function strings(source: string, field: string, value: unknown, problem: (v: string) => string | null): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new RealmFileError(source, field, 'expected an array of strings');
  return value.map((item, i) => {
    if (typeof item !== 'string') throw new RealmFileError(source, `${field}[${i}]`, 'expected a string');
    const bad = problem(item);
    if (bad) throw new RealmFileError(source, `${field}[${i}]`, bad);
    return item;
  });
}

/** Checks an overlay's JSON; a wrong field throws a {@link RealmFileError} naming it and what to write. */
export function parseOverlay(source: string, json: unknown): RealmOverlay {
  if (!isObject(json)) throw new RealmFileError(source, '(file)', 'expected a JSON object { "realm": …, "clients": [ … ] }');
  if (typeof json.realm !== 'string' || json.realm === '') throw new RealmFileError(source, 'realm', 'required (the realm to add to)');
  for (const key of Object.keys(json)) {
    if (key !== 'realm' && key !== 'clients')
      throw new RealmFileError(source, key, 'an overlay only adds to clients; put other settings in the realm file');
  }
  const clients = json.clients ?? [];
  if (!Array.isArray(clients)) throw new RealmFileError(source, 'clients', 'expected an array');
  return {
    realm: json.realm,
    clients: clients.map((client: unknown, i) => {
      const at = `clients[${i}]`;
      if (!isObject(client)) throw new RealmFileError(source, at, 'expected an object');
      if (typeof client.clientId !== 'string' || client.clientId === '')
        throw new RealmFileError(source, `${at}.clientId`, 'required (a client of the realm file)');
      for (const key of Object.keys(client)) {
        if (!CLIENT_FIELDS.has(key))
          throw new RealmFileError(
            source,
            `${at}.${key}`,
            'an overlay only adds redirectUris and webOrigins; change other settings in the realm file',
          );
      }
      return {
        clientId: client.clientId,
        redirectUris: strings(source, `${at}.redirectUris`, client.redirectUris, redirectUriProblem),
        webOrigins: strings(source, `${at}.webOrigins`, client.webOrigins, webOriginProblem),
      };
    }),
  };
}

/**
 * Reads an overlay file; `null` when it does not exist (nothing to add yet). Bad JSON or a bad field throws a
 * {@link RealmFileError} naming the file.
 */
export async function loadOverlayFile(path: string): Promise<RealmOverlay | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new RealmFileError(path, '(file)', `cannot read: ${(cause as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new RealmFileError(basename(path), '(file)', `not valid JSON: ${(cause as Error).message}`);
  }
  return parseOverlay(basename(path), json);
}

/**
 * Adds the overlay's redirect URIs and web origins to the realm's clients (each once) and says what it added;
 * a client the realm lacks is a warning, not an error (the realm file may have dropped it since).
 */
export function applyOverlay(realm: Realm, overlay: RealmOverlay): { added: string[]; warnings: string[] } {
  const added: string[] = [];
  const warnings: string[] = [];
  for (const entry of overlay.clients) {
    const client = realm.clients.find((c) => c.clientId === entry.clientId);
    if (!client) {
      warnings.push(`realm ${realm.name} has no client "${entry.clientId}"; its addresses are not added`);
      continue;
    }
    for (const uri of entry.redirectUris.filter((u) => !client.redirectUris.includes(u))) {
      client.redirectUris.push(uri);
      added.push(`${client.clientId} redirect URI ${uri}`);
    }
    for (const origin of entry.webOrigins.filter((o) => !client.webOrigins.includes(o))) {
      client.webOrigins.push(origin);
      added.push(`${client.clientId} web origin ${origin}`);
    }
  }
  return { added, warnings };
}
