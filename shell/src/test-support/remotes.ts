import type { RemoteConfig } from '../config/types';

/** The reports remote as the dev registry describes it; tests override what they are about. */
export function reportsRemote(overrides: Partial<RemoteConfig> = {}): RemoteConfig {
  return {
    name: 'reports',
    manifest: 'http://localhost:3003/mf-manifest.json',
    module: './App',
    route: '/reports',
    title: 'Reports',
    realmRoles: [],
    clientRoles: { reports: ['viewer'] },
    ...overrides,
  };
}
