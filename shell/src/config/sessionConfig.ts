import type { SessionConfig } from '@gatehouse/auth-lib';
import type { ShellConfig } from './types';

/**
 * The session config the shell creates its session with: config.json's identityProvider, signing in with the
 * scope of every remote's API besides its own `scopes`. A refresh can only narrow what the sign-in granted, so
 * each API's token (a downscoped refresh) needs its scope granted here (decisions/0054).
 */
export function sessionConfigOf(config: Pick<ShellConfig, 'identityProvider' | 'remotes'>): SessionConfig {
  const { identityProvider, remotes } = config;
  const scopes = [...new Set([...(identityProvider.scopes ?? []), ...remotes.flatMap((remote) => (remote.api ? [remote.api.scope] : []))])];
  return scopes.length > 0 ? { ...identityProvider, scopes } : identityProvider;
}
