import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { FailureLog } from './FailureLog';
import { RemoteLoadError } from './RemoteLoadError';

/** One entry of a remote's mf-manifest.json `shared` list, as far as the check reads it. */
interface ManifestShared {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly requiredVersion?: unknown;
}

/** What the shell's runtime itself shares: package name → the versions it provides. */
type ShellShared = Readonly<Record<string, ReadonlyArray<{ readonly version?: string; readonly from?: string }>>>;

interface SnapshotArgs {
  readonly manifestJson?: { shared?: readonly ManifestShared[] };
  readonly manifestUrl?: string;
  readonly moduleInfo?: { name?: string };
  readonly options?: { name?: string; shared?: ShellShared };
}

/** An incompatibility: the remote's build needs `needs` of `pkg`, the shell provides `provides`. */
export interface Incompatibility {
  readonly pkg: string;
  readonly needs: string;
  readonly provides: string;
}

const AUTH_LIB = '@gatehouse/auth-lib';

/** The major version a version or range starts with (`19.3.1`, `^18.2.0`, `~7.1.0` → 19, 18, 7); null if none. */
export function majorOf(versionOrRange: string): number | null {
  const match = /^\s*[\^~>=v]*\s*(\d+)(?:\.|$|\s)/.exec(versionOrRange);
  return match ? Number(match[1]) : null;
}

/**
 * Compares what a remote's manifest says its build needs with what the shell shares: every package the
 * shell shares as a singleton (React, its DOM renderer, the router, auth-lib) runs in the shell's copy,
 * so a remote built against another major of one of them would run against an API it was not written
 * for. Minor differences are left to the federation runtime (it warns, React tolerates them).
 */
export function findIncompatibilities(
  remoteShared: readonly ManifestShared[],
  shellShared: ShellShared,
  shellName: string | undefined,
): Incompatibility[] {
  const found: Incompatibility[] = [];
  for (const entry of remoteShared) {
    if (typeof entry.name !== 'string') continue;
    const provided = shellShared[entry.name];
    if (!provided || provided.length === 0) continue; // the shell does not share it: the remote brings its own
    const shellVersion = (provided.find((p) => p.from === shellName) ?? provided[0])?.version;
    if (typeof shellVersion !== 'string') continue;
    const provides = majorOf(shellVersion);
    for (const needs of [entry.version, entry.requiredVersion]) {
      if (typeof needs !== 'string' || needs === '' || needs === '*') continue;
      const major = majorOf(needs);
      if (major !== null && provides !== null && major !== provides) {
        found.push({ pkg: entry.name, needs, provides: shellVersion });
        break;
      }
    }
  }
  return found;
}

/**
 * Refuses a remote whose build needs another major of a package the shell shares, **before any of its
 * code runs**: the check reads the remote's manifest (loadRemoteSnapshot, before the remote entry is
 * requested) and throws a RemoteLoadError that names the package, what the remote needs and what the
 * shell provides. Only that remote's slot shows it; the page keeps working.
 */
export function compatibilityPlugin(failures: FailureLog): ModuleFederationRuntimePlugin {
  return {
    name: 'gatehouse-remote-compatibility',
    loadRemoteSnapshot(args: SnapshotArgs & { origin?: unknown }) {
      const shared = args.manifestJson?.shared;
      if (!Array.isArray(shared)) return args;
      const problems = findIncompatibilities(shared, args.options?.shared ?? {}, args.options?.name);
      if (problems.length === 0) return args;
      const remote = args.moduleInfo?.name ?? 'remote';
      const list = problems.map((p) => `${p.pkg} ${p.needs} (this shell provides ${p.provides})`).join(', ');
      const authLib = problems.some((p) => p.pkg === AUTH_LIB);
      const refusal = new RemoteLoadError(
        remote,
        authLib ? 'incompatible-auth-lib' : 'incompatible-shared',
        `The remote "${remote}" was built against ${list}, another major version than this shell shares, so it was not run. ` +
          `Its team rebuilds it against the shell's versions (\`gatehouse-contract-check --shell <shell URL>\` names them), or the shell moves first.`,
      );
      // The runtime's hook system prefixes and rethrows what a snapshot hook throws; the slot reads
      // the refusal itself from the failure log (the first failure of an attempt is its cause).
      failures.record(remote, { lifecycle: 'afterResolve', error: refusal });
      throw new Error(refusal.message);
    },
  } as ModuleFederationRuntimePlugin;
}
