import { BruteForceProtector, BruteForceSettingError } from '../sessions/bruteForce.js';
import { sendJson } from '../http/respond.js';
import { realmFromRepresentation } from '../realm/loadRealm.js';
import { RealmFileError } from '../realm/RealmFileError.js';
import { MAX_SECONDS, validSeconds } from '../realm/validate.js';
import type { RealmDirectory } from '../server/RealmDirectory.js';
import type { AdminRequest } from './AdminRequest.js';
import { AdminError } from './AdminRequest.js';
import { realmOut } from './representations.js';
import type { ServerResponse } from 'node:http';

/** `POST /admin/realms`: imports a full realm representation (roles, clients, users). */
export async function createRealm(server: RealmDirectory, res: ServerResponse, body: unknown): Promise<void> {
  let loaded;
  try {
    loaded = realmFromRepresentation('realm representation', body);
  } catch (error) {
    if (error instanceof RealmFileError) throw new AdminError(400, error.message);
    throw error;
  }
  if (server.realms.has(loaded.realm.name)) throw new AdminError(409, `Conflict detected. Realm ${loaded.realm.name} already exists`);
  const settings = bruteForceOf(body);
  const runtime = await server.addRealm(loaded.realm);
  runtime.bruteForce.configure(settings);
  res.writeHead(201, { Location: `${server.baseUrl}/admin/realms/${encodeURIComponent(loaded.realm.name)}`, 'Content-Length': 0 });
  res.end();
}

export function listRealms(server: RealmDirectory, res: ServerResponse): void {
  sendJson(
    res,
    200,
    [...server.realms.values()].map((r) => ({ ...realmOut(r.realm), ...r.bruteForce.settings })),
  );
}

export function getRealm({ runtime, res }: AdminRequest): void {
  sendJson(res, 200, { ...realmOut(runtime.realm), ...runtime.bruteForce.settings });
}

/** `PUT /admin/realms/{realm}`: enabled, displayName, the lifespans and brute-force detection; they apply at once. */
export function updateRealm({ runtime, res, body }: AdminRequest): void {
  const update = (body ?? {}) as Record<string, unknown>;
  const { realm } = runtime;
  runtime.bruteForce.configure(bruteForceOf(update));
  for (const key of [
    'accessTokenLifespan',
    'accessTokenLifespanForImplicitFlow',
    'ssoSessionIdleTimeout',
    'ssoSessionMaxLifespan',
  ] as const) {
    const value = update[key];
    if (value === undefined || value === null) continue;
    if (!validSeconds(value))
      throw new AdminError(
        400,
        `${key}: expected a positive whole number of seconds (at most ${MAX_SECONDS}), got ${JSON.stringify(value)}`,
      );
    realm[key] = value;
  }
  if (typeof update.enabled === 'boolean') realm.enabled = update.enabled;
  if (typeof update.revokeRefreshToken === 'boolean') realm.revokeRefreshToken = update.revokeRefreshToken;
  if (typeof update.displayName === 'string') realm.displayName = update.displayName;
  if (typeof update.realm === 'string' && update.realm !== realm.name)
    throw new AdminError(400, 'Renaming a realm is not supported by the dev IdP');
  res.writeHead(204).end();
}

export function deleteRealm({ server, runtime, res }: AdminRequest): void {
  if (runtime.realm.name === 'master') throw new AdminError(400, 'The master realm cannot be deleted');
  for (const user of runtime.realm.users) runtime.sessions.endForUser(user.id);
  server.removeRealm(runtime.realm.name);
  res.writeHead(204).end();
}

/** The brute-force fields of a realm representation, checked (a wrong one is a 400 naming it). */
function bruteForceOf(body: unknown): Record<string, unknown> {
  const rep = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  try {
    new BruteForceProtector().configure(rep);
  } catch (error) {
    if (error instanceof BruteForceSettingError) throw new AdminError(400, error.message);
    throw error;
  }
  return rep;
}
