import { sendJson } from '../http/respond.js';
import type { Role } from '../realm/model.js';
import type { AdminRequest } from './AdminRequest.js';
import { AdminError } from './AdminRequest.js';
import { findClient } from './clients.js';
import { roleOut } from './representations.js';
import { findUser } from './users.js';

function newRole(body: unknown): Role {
  const rep = (body ?? {}) as { name?: unknown; description?: unknown };
  if (typeof rep.name !== 'string' || rep.name === '') throw new AdminError(400, 'name: required');
  return { id: crypto.randomUUID(), name: rep.name, description: typeof rep.description === 'string' ? rep.description : undefined };
}

/** `GET|POST …/roles`, `GET …/roles/{name}`: realm roles. */
export function listRealmRoles({ runtime, res }: AdminRequest): void {
  sendJson(
    res,
    200,
    runtime.realm.roles.map((r) => roleOut(r, runtime.realm.id, false)),
  );
}

export function createRealmRole({ runtime, res, body, server }: AdminRequest): void {
  const role = newRole(body);
  if (runtime.realm.roles.some((r) => r.name === role.name)) throw new AdminError(409, `Role with name ${role.name} already exists`);
  runtime.realm.roles.push(role);
  res.writeHead(201, {
    Location: `${server.baseUrl}/admin/realms/${encodeURIComponent(runtime.realm.name)}/roles/${encodeURIComponent(role.name)}`,
    'Content-Length': 0,
  });
  res.end();
}

export function getRealmRole({ runtime, res, params }: AdminRequest): void {
  const role = runtime.realm.roles.find((r) => r.name === decodeURIComponent(params[0] ?? ''));
  if (!role) throw new AdminError(404, 'Could not find role');
  sendJson(res, 200, roleOut(role, runtime.realm.id, false));
}

/** `GET|POST …/clients/{id}/roles`, `GET …/clients/{id}/roles/{name}`: client roles. */
export function listClientRoles(request: AdminRequest): void {
  const client = findClient(request);
  sendJson(
    request.res,
    200,
    client.roles.map((r) => roleOut(r, client.id, true)),
  );
}

export function createClientRole(request: AdminRequest): void {
  const client = findClient(request);
  const role = newRole(request.body);
  if (client.roles.some((r) => r.name === role.name)) throw new AdminError(409, `Role with name ${role.name} already exists`);
  client.roles.push(role);
  request.res.writeHead(201, { Location: `${request.url.href}/${encodeURIComponent(role.name)}`, 'Content-Length': 0 });
  request.res.end();
}

export function getClientRole(request: AdminRequest): void {
  const client = findClient(request);
  const role = client.roles.find((r) => r.name === decodeURIComponent(request.params[1] ?? ''));
  if (!role) throw new AdminError(404, 'Could not find role');
  sendJson(request.res, 200, roleOut(role, client.id, true));
}

function roleNames(body: unknown): string[] {
  if (!Array.isArray(body)) throw new AdminError(400, 'expected an array of roles');
  return body.map((r) => {
    const name = (r as { name?: unknown }).name;
    if (typeof name !== 'string') throw new AdminError(400, 'role name: required');
    return name;
  });
}

/** `GET|POST|DELETE …/users/{id}/role-mappings/realm` */
export function realmRoleMappings(request: AdminRequest): void {
  const user = findUser(request);
  const { runtime, req, res } = request;
  if (req.method === 'GET') {
    const roles = runtime.realm.roles.filter((r) => user.realmRoles.includes(r.name));
    return sendJson(
      res,
      200,
      roles.map((r) => roleOut(r, runtime.realm.id, false)),
    );
  }
  const names = roleNames(request.body);
  for (const name of names) if (!runtime.realm.roles.some((r) => r.name === name)) throw new AdminError(404, `Role ${name} not found`);
  user.realmRoles =
    req.method === 'DELETE' ? user.realmRoles.filter((r) => !names.includes(r)) : [...new Set([...user.realmRoles, ...names])];
  res.writeHead(204).end();
}

/** `GET|POST|DELETE …/users/{id}/role-mappings/clients/{clientUuid}` */
export function clientRoleMappings(request: AdminRequest): void {
  const user = findUser(request);
  const client = findClient(request, 1);
  const { req, res } = request;
  const current = user.clientRoles[client.clientId] ?? [];
  if (req.method === 'GET') {
    return sendJson(
      res,
      200,
      client.roles.filter((r) => current.includes(r.name)).map((r) => roleOut(r, client.id, true)),
    );
  }
  const names = roleNames(request.body);
  for (const name of names) if (!client.roles.some((r) => r.name === name)) throw new AdminError(404, `Role ${name} not found`);
  user.clientRoles[client.clientId] =
    req.method === 'DELETE' ? current.filter((r) => !names.includes(r)) : [...new Set([...current, ...names])];
  res.writeHead(204).end();
}
