import type { ConfigResult, RemoteConfig, ShellConfig } from './types';

/**
 * A config.json that passed config.schema.json: what a schema cannot say (unique names and routes) is checked here,
 * and the remotes get their documented defaults.
 */
export function settleConfig(config: ShellConfig): ConfigResult {
  const problems: string[] = [];
  duplicates(config.remotes.map((r) => r.name)).forEach((name) => problems.push(`Two remotes are named "${name}"; names must be unique.`));
  duplicates(config.remotes.map((r) => r.route)).forEach((route) =>
    problems.push(`Two remotes own the route "${route}"; routes must be unique.`),
  );
  if (problems.length > 0) return { ok: false, problems };
  const { identityProvider, overrides, sessionEvents } = config;
  return {
    ok: true,
    config: {
      identityProvider: { ...identityProvider, url: identityProvider.url.replace(/\/+$/, '') },
      remotes: config.remotes.map(withDefaults),
      ...(overrides ? { overrides } : {}),
      ...(sessionEvents ? { sessionEvents } : {}),
    },
  };
}

/** The defaults config.schema.json documents for a remote (checked against the schema by a test). */
export const REMOTE_DEFAULTS = { module: './App', realmRoles: [], clientRoles: {} } as const;

function withDefaults(remote: Partial<RemoteConfig> & Pick<RemoteConfig, 'name' | 'manifest' | 'route' | 'title'>): RemoteConfig {
  return {
    ...remote,
    module: remote.module ?? REMOTE_DEFAULTS.module,
    realmRoles: remote.realmRoles ?? [],
    clientRoles: remote.clientRoles ?? {},
  };
}

function duplicates(values: readonly string[]): string[] {
  return [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];
}
