import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { originAllowed } from '../overrides/RemoteOverrides';
import type { FailureLog } from './FailureLog';
import { RemoteLoadError } from './RemoteLoadError';

/** The part of the runtime's remote snapshot (read from a manifest) that says where the code is. */
interface CodeSnapshot {
  readonly publicPath?: unknown;
  readonly getPublicPath?: unknown;
  readonly remoteEntry?: unknown;
  readonly modules?: unknown;
}

interface SnapshotArgs {
  readonly moduleInfo?: { readonly name?: string };
  readonly remoteSnapshot?: CodeSnapshot;
  readonly manifestUrl?: string;
}

/**
 * Every address the runtime would load a remote's code from, built exactly as it builds them
 * (`getResourceUrl` of @module-federation/sdk: `${publicPath}${file}`, any value turned into a string), resolved
 * like a script's `src`. Fails closed: throws when the manifest computes its code address with a function
 * (`getPublicPath`, which the runtime would run with `new Function`), and when `publicPath`, the remote entry or
 * a file of an exposed module is anything but a string (an array `["http://elsewhere/"]` would become
 * "http://elsewhere/" in the runtime's template string).
 */
export function codeUrls(snapshot: CodeSnapshot, base: string): URL[] {
  if ('getPublicPath' in snapshot && snapshot.getPublicPath === undefined && !('publicPath' in snapshot)) {
    throw new TypeError('its manifest names no publicPath (metaData.publicPath), so where its code is cannot be checked');
  }
  if ('getPublicPath' in snapshot) {
    throw new TypeError('its manifest computes the code address with a function ("getPublicPath"), and a manifest cannot run code here');
  }
  if ('publicPath' in snapshot && typeof snapshot.publicPath !== 'string') {
    throw new TypeError(`its manifest's publicPath is ${describe(snapshot.publicPath)}, not a string URL`);
  }
  const publicPath = snapshot.publicPath ?? '';
  const files = [snapshot.remoteEntry, ...moduleAssets(snapshot.modules)];
  return files.map((file) => {
    if (typeof file !== 'string') throw new TypeError(`its manifest names a code file that is ${describe(file)}, not a string`);
    return new URL(`${publicPath}${file}`, base);
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a${typeof value === 'object' || typeof value === 'undefined' ? 'n' : ''} ${typeof value}`;
}

function moduleAssets(modules: unknown): unknown[] {
  if (!Array.isArray(modules)) return [];
  return modules.flatMap((module: { assets?: Record<string, Record<string, unknown>> }) =>
    ['js', 'css'].flatMap((kind) => ['sync', 'async'].flatMap((when) => toArray(module?.assets?.[kind]?.[when]))),
  );
}

function toArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Checks where a remote's code would come from **before any of it is requested** (loadRemoteSnapshot,
 * after the manifest is read): a remote loaded through a per-tab override may run code only from the
 * override allowlist's origins — the manifest's address being allowed is not enough, since its
 * `publicPath` may name any origin. No remote may compute its code address with a function.
 * A refusal fails only that remote's slot (`code-refused`), naming the origin.
 *
 * `allowedOrigins(name)` is the allowlist for an overridden remote, `null` for one loaded from the registry.
 */
export function codeOriginPlugin(
  failures: FailureLog,
  allowedOrigins: (remote: string) => readonly string[] | null,
): ModuleFederationRuntimePlugin {
  return {
    name: 'gatehouse-code-origins',
    loadRemoteSnapshot(args: SnapshotArgs) {
      const remote = args.moduleInfo?.name ?? 'remote';
      const refuse = (reason: string): never => {
        const refusal = new RemoteLoadError(remote, 'code-refused', `The code of the remote "${remote}" was not loaded: ${reason}.`);
        // as in compatibilityPlugin: the runtime rethrows with a prefix; the slot reads the refusal from the log
        failures.record(remote, { lifecycle: 'afterResolve', error: refusal });
        throw new Error(refusal.message);
      };
      let urls: URL[];
      try {
        urls = codeUrls(args.remoteSnapshot ?? {}, globalThis.document?.baseURI ?? globalThis.location.href);
      } catch (error) {
        return refuse(
          error instanceof TypeError && !/Invalid URL/i.test(error.message)
            ? error.message
            : 'its manifest names a code address that is not a URL',
        );
      }
      const allowed = allowedOrigins(remote);
      if (allowed === null) return args;
      const outside = urls.find((url) => !originAllowed(url.href, allowed));
      if (outside) {
        refuse(
          `its manifest names code at ${outside.origin}, which is not an allowed override origin (allowed: ${allowed.join(', ')}). ` +
            'An override may load code only from the allowed origins; build the remote with publicPath "auto" or an allowed origin',
        );
      }
      return args;
    },
  } as ModuleFederationRuntimePlugin;
}
