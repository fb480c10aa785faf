import type { SessionConfig } from '@gatehouse/auth-lib';
import type { ShellConfig } from './types';

/**
 * The session config the shell creates its session with: config.json's identityProvider, signing in with the
 * scope of every remote's API besides its own `scopes`. A refresh can only narrow what the sign-in granted, so
 * each API's token (a downscoped refresh) needs its scope granted here (decisions/0054). `apis` is the registry's
 * list of APIs: the leading tab gets API tokens for other tabs only for these (decisions/0108). `sessionEvents` is
 * config.json's own key: the service that pushes the session's end (decisions/0118).
 */
export function sessionConfigOf(config: Pick<ShellConfig, 'identityProvider' | 'remotes' | 'sessionEvents'>): SessionConfig {
  const { identityProvider, remotes, sessionEvents } = config;
  const apis = remotes.flatMap((remote) => (remote.api ? [remote.api] : []));
  const scopes = [...new Set([...(identityProvider.scopes ?? []), ...apis.map((api) => api.scope)])];
  return { ...identityProvider, ...(scopes.length > 0 ? { scopes } : {}), apis, ...(sessionEvents ? { sessionEvents } : {}) };
}
