import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/** The shared package each remote container gets its own instance of. */
export const AUTH_LIB = '@gatehouse/auth-lib';

/** One provider of a shared package in a share scope, as far as this plugin reads and writes it. */
interface Provider {
  version?: string;
  lib?: () => unknown;
  get?: () => unknown;
  loaded?: boolean;
  loading?: unknown;
  from?: string;
  [field: string]: unknown;
}

type ShareScope = Record<string, Record<string, Provider>>;
type ShareScopeMap = Record<string, ShareScope>;

interface InitContainerArgs {
  shareScope: ShareScope;
  remoteEntryInitOptions: { shareScopeKeys?: string | string[]; shareScopeMap?: ShareScopeMap; [field: string]: unknown };
  initScope: unknown[];
  remoteInfo: { name: string; shareScope?: string | string[] };
  [field: string]: unknown;
}

/**
 * `scope` with `pkg` replaced: every version the shell provides (or `version` if none is registered yet) answers
 * with `module`, already loaded, so the runtime hands it out as it is (`loaded-first`: a loaded provider wins over
 * the remote's own copy). Every other package's versions are the host's own objects: still one React per page.
 */
function scopeWith(scope: ShareScope, pkg: string, module: unknown, version: string, shellName: string): ShareScope {
  const own: ShareScope = { ...scope };
  const versions: Record<string, Provider> = {};
  const provided = Object.entries(scope[pkg] ?? {});
  const entries: [string, Provider][] = provided.length > 0 ? provided : [[version, { version, from: shellName, scope: ['default'] }]];
  for (const [key, provider] of entries) {
    const { loading: _loading, ...rest } = provider;
    versions[key] = {
      shareConfig: { singleton: true, requiredVersion: `^${key}`, strictVersion: true, eager: false },
      strategy: 'loaded-first',
      ...rest,
      lib: () => module,
      get: () => Promise.resolve(() => module),
      loaded: true,
    };
  }
  own[pkg] = versions;
  return own;
}

/**
 * The auth-lib module object the shell provides and has loaded, whole: every export, whatever the shell itself uses.
 * The shell's own `import * as` of a shared package is not that: a production build's namespace object for a
 * consumed shared module lists only the exports the shell's code uses (webpack cannot know the rest), so a remote's
 * `RequireRole` would be undefined in it.
 */
function shellsLoadedModule(scope: ShareScope, shellName: string): Record<string, unknown> | undefined {
  const providers = Object.values(scope[AUTH_LIB] ?? {}).filter((p) => p.loaded && typeof p.lib === 'function');
  const provider = providers.find((p) => p.from === shellName) ?? providers[0];
  const module = provider?.lib?.();
  return typeof module === 'object' && module !== null ? (module as Record<string, unknown>) : undefined;
}

/**
 * Gives each remote container its own `@gatehouse/auth-lib` (decisions/0109): when the shell's runtime initialises
 * a remote's container (`beforeInitContainer`, before any of the remote's modules runs), the share scope it hands
 * the container is a copy of the shell's in which auth-lib is `moduleFor(name)`, the remote's module, keyed by the
 * name the shell registered the remote under (config.json's `name`, not what the container calls itself). Both the
 * scope (`init`'s first argument, which webpack and Rsbuild containers read) and the scope map behind
 * `remoteEntryInitOptions` (which Vite containers read) are replaced. The shell's own scope is left as it was.
 *
 * @example
 * registerPlugins([remoteAuthPlugin((name) => authModuleFor(viewOf(name)), VERSION)]);
 */
export function remoteAuthPlugin(
  moduleFor: (remote: string, shellsModule: Record<string, unknown> | undefined) => unknown,
  version: string,
  shellName = 'gatehouse_shell',
): ModuleFederationRuntimePlugin {
  return {
    name: 'gatehouse-remote-auth',
    beforeInitContainer(args: InitContainerArgs) {
      const options = args.remoteEntryInitOptions;
      const hostMap: ShareScopeMap = options.shareScopeMap ?? {};
      const keys = Array.isArray(options.shareScopeKeys) ? options.shareScopeKeys : [options.shareScopeKeys ?? 'default'];
      const module = moduleFor(args.remoteInfo.name, shellsLoadedModule(hostMap[keys[0] ?? 'default'] ?? args.shareScope, shellName));
      const map: ShareScopeMap = { ...hostMap };
      for (const key of keys)
        map[key] = scopeWith(hostMap[key] ?? (key === keys[0] ? args.shareScope : {}), AUTH_LIB, module, version, shellName);
      const remoteEntryInitOptions = { ...options };
      Object.defineProperty(remoteEntryInitOptions, 'shareScopeMap', { value: map, enumerable: false });
      return { ...args, shareScope: map[keys[0] ?? 'default'] ?? args.shareScope, remoteEntryInitOptions };
    },
  } as unknown as ModuleFederationRuntimePlugin;
}
