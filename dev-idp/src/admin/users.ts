import { sendJson } from '../http/respond.js';
import { toUser } from '../realm/buildRealm.js';
import type { User } from '../realm/model.js';
import { RealmFileError } from '../realm/RealmFileError.js';
import type { UserRepresentation } from '../realm/representation.js';
import { validateRealm } from '../realm/validate.js';
import type { AdminRequest } from './AdminRequest.js';
import { AdminError } from './AdminRequest.js';
import { userOut } from './representations.js';

function findUser({ runtime, params }: AdminRequest): User {
  const user = runtime.user(params[0]);
  if (!user) throw new AdminError(404, 'User not found');
  return user;
}

function validUser(request: AdminRequest): UserRepresentation {
  try {
    const { realm } = validateRealm('user representation', { realm: request.runtime.realm.name, users: [request.body] });
    return realm.users?.[0] ?? {};
  } catch (error) {
    if (error instanceof RealmFileError) throw new AdminError(400, error.message.replace('users[0].', ''));
    throw error;
  }
}

/** `GET …/users?username=&exact=true` (also `email`, `search`, `first`, `max`). */
export function listUsers({ runtime, res, url }: AdminRequest): void {
  const q = url.searchParams;
  const exact = q.get('exact') === 'true';
  const matches = (value: string | undefined, wanted: string | null): boolean => {
    if (wanted === null) return true;
    const v = (value ?? '').toLowerCase();
    const w = wanted.toLowerCase();
    return exact ? v === w : v.includes(w);
  };
  const search = q.get('search')?.toLowerCase();
  const users = runtime.realm.users.filter(
    (u) =>
      matches(u.username, q.get('username')) &&
      matches(u.email, q.get('email')) &&
      (!search || [u.username, u.email, u.firstName, u.lastName].some((f) => f?.toLowerCase().includes(search))),
  );
  const first = Number(q.get('first') ?? 0);
  const max = Number(q.get('max') ?? 100);
  sendJson(res, 200, users.slice(first, first + max).map(userOut));
}

/** `POST …/users`: 201 with the new id in `Location`. As in Keycloak, role fields are ignored (map roles afterwards). */
export function createUser(request: AdminRequest): void {
  const rep = validUser(request);
  if (!rep.username) throw new AdminError(400, 'username: required');
  const { runtime, res, server } = request;
  const user = toUser({ ...rep, realmRoles: [], clientRoles: {}, id: undefined });
  if (runtime.realm.users.some((u) => u.username === user.username)) throw new AdminError(409, 'User exists with same username');
  if (user.email && runtime.realm.users.some((u) => u.email === user.email)) throw new AdminError(409, 'User exists with same email');
  user.realmRoles.push(`default-roles-${runtime.realm.name}`);
  runtime.realm.users.push(user);
  res.writeHead(201, {
    Location: `${server.baseUrl}/admin/realms/${encodeURIComponent(runtime.realm.name)}/users/${user.id}`,
    'Content-Length': 0,
  });
  res.end();
}

export function getUser(request: AdminRequest): void {
  sendJson(request.res, 200, userOut(findUser(request)));
}

export function updateUser(request: AdminRequest): void {
  const user = findUser(request);
  const rep = validUser(request);
  for (const key of ['email', 'firstName', 'lastName'] as const) if (rep[key] !== undefined) user[key] = rep[key];
  if (rep.enabled !== undefined) user.enabled = rep.enabled;
  if (rep.emailVerified !== undefined) user.emailVerified = rep.emailVerified;
  // Keycloak keeps a disabled user's sessions (their tokens stop working) and posts no logout token; the dev IdP ends
  // them, without a logout token either.
  if (rep.enabled === false) request.runtime.sessions.endForUser(user.id);
  request.res.writeHead(204).end();
}

export function deleteUser(request: AdminRequest): void {
  const user = findUser(request);
  // as Keycloak (UserManager.removeUser): the sessions go with the user, no logout token is posted
  request.runtime.sessions.endForUser(user.id);
  request.runtime.realm.users = request.runtime.realm.users.filter((u) => u.id !== user.id);
  request.res.writeHead(204).end();
}

/** `PUT …/users/{id}/reset-password` with `{ type: "password", value, temporary }`. */
export function resetPassword(request: AdminRequest): void {
  const user = findUser(request);
  const credential = (request.body ?? {}) as { value?: unknown };
  if (typeof credential.value !== 'string' || credential.value === '') throw new AdminError(400, 'value: required');
  user.password = credential.value;
  request.res.writeHead(204).end();
}

/**
 * `POST …/users/{id}/logout`: ends every session of the user (their tokens stop refreshing, the status frame says
 * `changed`), each logged out as Keycloak's `UserResource.logout` does: its clients get their back-channel logout tokens.
 */
export function logoutUser(request: AdminRequest): void {
  const user = findUser(request);
  const { runtime } = request;
  for (const session of runtime.sessions.forUser(user.id)) void runtime.logOut(session.id, 'backchannel');
  runtime.sessions.endForUser(user.id);
  request.res.writeHead(204).end();
}

/**
 * `DELETE …/sessions/{id}`: ends that session as Keycloak's `RealmAdminResource.deleteSession` does (its clients get
 * their back-channel logout tokens); 404 "Sesssion not found" (Keycloak's spelling) when it is not active. The dev IdP
 * has no offline sessions, so `isOffline=true` finds none.
 */
export function deleteSession(request: AdminRequest): void {
  const { runtime, params, url } = request;
  const session = url.searchParams.get('isOffline') === 'true' ? undefined : runtime.sessions.active(params[0]);
  if (!session) throw new AdminError(404, 'Sesssion not found');
  void runtime.logOut(session.id, 'backchannel');
  request.res.writeHead(204).end();
}

export function userSessions(request: AdminRequest): void {
  const user = findUser(request);
  sendJson(
    request.res,
    200,
    request.runtime.sessions.forUser(user.id).map((s) => ({
      id: s.id,
      username: user.username,
      userId: user.id,
      start: s.started * 1000,
      lastAccess: s.lastActive * 1000,
    })),
  );
}

export { findUser };
