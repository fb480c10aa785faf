import { AuthError } from '../errors';
import type { Session, SessionConfig } from '../types';
import { configDifferences, resolveConfig } from './config';
import { KeycloakSession, type SessionDependencies } from './KeycloakSession';
import { publicSession } from './publicSession';
import { pageRegistry, registerSession } from './registry';
import { remoteView } from './apis/remoteView';

/**
 * The session this copy of auth-lib created, which only `createSession` returns (decisions/0109): the page
 * registry, which any script and any copy of auth-lib reads, holds its page view instead.
 */
let created: { readonly root: Session; readonly page: Session } | null = null;

/**
 * Creates the page's one session and starts keycloak-js (check-sso: no redirect on public pages).
 * Call it once, in the shell; calling it again with an equal config returns the same session (so
 * React StrictMode's double effects are harmless), with a different one throws.
 *
 * @example
 * const config = await (await fetch('/config.json')).json();
 * const session = createSession(config.identityProvider); // { url, realm, clientId, … }
 * await session.ready();
 *
 * @throws AuthError `invalid-config` when the config cannot work (the message names the field), or
 *   when the page already has a session with a different config.
 */
export function createSession(config: SessionConfig, dependencies: SessionDependencies = {}): Session {
  const origin = (dependencies.location ?? globalThis.location).origin;
  const resolved = resolveConfig(config, origin);
  const existing = pageRegistry().session;
  if (existing) {
    const differences = configDifferences(existing.config, resolved);
    if (differences.length === 0) return created?.page === existing ? created.root : existing;
    throw new AuthError(
      'invalid-config',
      `This page already has a session (realm "${existing.config.realm}", client "${existing.config.clientId}") and ` +
        `createSession() was called again with a different ${differences.join(', ')}. A page has one keycloak-js ` +
        `instance: create the session once in the shell and read it with getSession() or the React hooks.`,
    );
  }
  // the contract only: the KeycloakSession (and its keycloak-js) is not reachable from the registry entry
  const session = publicSession(new KeycloakSession(resolved, dependencies));
  // the registry gets the page view: getSession(), whenSession(), authFetch and the hooks without a provider give
  // no script the root session (whose forApi mints a token for any API), only its creator has it
  const page = remoteView(session, null);
  created = { root: session, page };
  registerSession(page);
  return session;
}

/**
 * The page's session, for code outside React (a remote's API module, the shell's router). What it gives is a view
 * (decisions/0109): inside a remote the shell gives, the remote's own (its API's tokens, or the page's where its
 * registry entry names no API); elsewhere the page session, whose `forApi` refuses every API.
 *
 * @example
 * const response = await getSession().authFetch('/api/reports');
 *
 * @throws AuthError `no-session` when no session has been created yet.
 */
export function getSession(): Session {
  const session = pageRegistry().session;
  if (!session) {
    throw new AuthError(
      'no-session',
      'There is no session on this page yet: create it with createSession() in the shell, or wrap your app in <AuthProvider>. ' +
        'Code that may run before the shell is ready can await whenSession().',
    );
  }
  return session;
}

/**
 * Resolves with the page's session as soon as the shell has created it (at once if it already has): the same
 * view `getSession()` gives.
 * For a remote whose code can start before the shell is ready.
 *
 * @example
 * const session = await whenSession();
 * session.subscribe(() => render(session.getSnapshot()));
 */
export function whenSession(): Promise<Session> {
  const registry = pageRegistry();
  if (registry.session) return Promise.resolve(registry.session);
  return new Promise((resolve) => registry.waiting.push(resolve));
}
