import { createRequire } from 'node:module';
import path from 'node:path';

/** One entry of Module Federation's `shared` option, as Gatehouse uses it. */
export interface SharedEntry {
  readonly singleton: true;
  readonly strictVersion: boolean;
  readonly requiredVersion: string;
  readonly version: string;
}

export type SharedMap = Readonly<Record<string, SharedEntry>>;

/**
 * Packages every app shares as page-wide singletons, and the package whose version each one follows.
 * `react-router-dom` is the platform's router subset (`router.ts`, which `defineApp` resolves it to;
 * decisions/0007), versioned as the react-router-dom it re-exports.
 */
export const SHARED_PACKAGES: Readonly<Record<string, string>> = {
  react: 'react',
  'react/jsx-runtime': 'react',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom',
  'react-router-dom': 'react-router-dom',
  '@gatehouse/auth-lib': '@gatehouse/auth-lib',
};

/**
 * auth-lib is the contract between the shell and the remotes: a remote built against another major
 * must fail in its own slot (strict), not run against a session object it does not understand.
 * The other singletons only warn on a mismatch, as React itself tolerates minor differences.
 */
export const STRICT_PACKAGES: ReadonlySet<string> = new Set(['@gatehouse/auth-lib']);

/** Reads the installed version of a package as seen from `appDir`. */
export function installedVersion(pkg: string, appDir: string): string {
  const requireFromApp = createRequire(path.join(appDir, 'package.json'));
  const manifest = requireFromApp(`${pkg}/package.json`) as { version?: unknown };
  if (typeof manifest.version !== 'string') {
    throw new Error(`${pkg}/package.json has no version; reinstall it with \`npm install\`.`);
  }
  return manifest.version;
}

/**
 * The `shared` map of every Gatehouse app: each package a singleton that accepts any version of the
 * same major (`^x.y.z`), auth-lib strictly.
 *
 * @example
 * sharedDependencies((pkg) => installedVersion(pkg, __dirname))
 */
export function sharedDependencies(versionOf: (pkg: string) => string): SharedMap {
  const shared: Record<string, SharedEntry> = {};
  for (const [request, pkg] of Object.entries(SHARED_PACKAGES)) {
    const version = versionOf(pkg);
    shared[request] = {
      singleton: true,
      strictVersion: STRICT_PACKAGES.has(pkg),
      requiredVersion: `^${version}`,
      version,
    };
  }
  return shared;
}
