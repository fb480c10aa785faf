import type { IncomingMessage, ServerResponse } from 'node:http';

import { readBody, sendJson } from '../http/respond.js';
import type { RealmDirectory } from '../server/RealmDirectory.js';
import { authorizeAdmin } from './adminAuth.js';
import type { AdminHandler } from './AdminRequest.js';
import { AdminError } from './AdminRequest.js';
import { createClient, deleteClient, getClient, listClients, updateClient } from './clients.js';
import { createRealm, deleteRealm, getRealm, listRealms, updateRealm } from './realms.js';
import {
  clientRoleMappings,
  createClientRole,
  createRealmRole,
  getClientRole,
  getRealmRole,
  listClientRoles,
  listRealmRoles,
  realmRoleMappings,
} from './roles.js';
import { createUser, deleteSession, deleteUser, getUser, listUsers, logoutUser, resetPassword, updateUser, userSessions } from './users.js';

type Routes = Record<string, Partial<Record<string, AdminHandler>>>;

/** The subset of Keycloak's admin REST API under `/admin/realms/{realm}` (paths relative to it). */
const REALM_ROUTES: Routes = {
  '': { GET: getRealm, PUT: updateRealm, DELETE: deleteRealm },
  '/users': { GET: listUsers, POST: createUser },
  '/users/{id}': { GET: getUser, PUT: updateUser, DELETE: deleteUser },
  '/users/{id}/reset-password': { PUT: resetPassword },
  '/users/{id}/logout': { POST: logoutUser },
  '/users/{id}/sessions': { GET: userSessions },
  '/sessions/{id}': { DELETE: deleteSession },
  '/users/{id}/role-mappings/realm': { GET: realmRoleMappings, POST: realmRoleMappings, DELETE: realmRoleMappings },
  '/users/{id}/role-mappings/clients/{id}': { GET: clientRoleMappings, POST: clientRoleMappings, DELETE: clientRoleMappings },
  '/roles': { GET: listRealmRoles, POST: createRealmRole },
  '/roles/{id}': { GET: getRealmRole },
  '/clients': { GET: listClients, POST: createClient },
  '/clients/{id}': { GET: getClient, PUT: updateClient, DELETE: deleteClient },
  '/clients/{id}/roles': { GET: listClientRoles, POST: createClientRole },
  '/clients/{id}/roles/{id}': { GET: getClientRole },
};

const COMPILED = Object.entries(REALM_ROUTES).map(([path, handlers]) => ({
  pattern: new RegExp(`^${path.replace(/\{id\}/g, '([^/]+)')}/?$`),
  handlers,
}));

/** Dispatches `/admin/…`; errors answer `{"errorMessage": …}` with Keycloak's status codes. */
export async function handleAdmin(server: RealmDirectory, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  try {
    await authorizeAdmin(server, req);
    const raw = req.method === 'GET' || req.method === 'HEAD' ? '' : (await readBody(req)).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      throw new AdminError(400, 'The request body is not valid JSON');
    }
    if (url.pathname === '/admin/realms' || url.pathname === '/admin/realms/') {
      if (req.method === 'POST') return await createRealm(server, res, body);
      if (req.method === 'GET') return listRealms(server, res);
      throw new AdminError(405, 'HTTP 405 Method Not Allowed');
    }
    const match = /^\/admin\/realms\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!match) throw new AdminError(404, 'HTTP 404 Not Found');
    const runtime = server.realms.get(decodeURIComponent(match[1] ?? ''));
    if (!runtime) throw new AdminError(404, 'Realm not found.');
    const rest = (match[2] ?? '').replace(/\/$/, '');
    for (const { pattern, handlers } of COMPILED) {
      const found = pattern.exec(rest);
      if (!found) continue;
      const handler = handlers[req.method ?? 'GET'];
      if (!handler) throw new AdminError(405, 'HTTP 405 Method Not Allowed');
      return await handler({ server, req, res, url, runtime, body, params: found.slice(1).map((p) => decodeURIComponent(p ?? '')) });
    }
    throw new AdminError(404, `The dev IdP does not implement ${req.method} ${url.pathname}`);
  } catch (error) {
    if (!(error instanceof AdminError)) throw error;
    sendJson(res, error.code, { errorMessage: error.message, error: error.message });
  }
}
