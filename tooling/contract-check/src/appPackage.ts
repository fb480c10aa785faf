import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** What the contract check knows about one app (the shell or a remote): its name, its declared ranges, what is installed for it. */
export interface AppPackage {
  /** the package name, e.g. `@gatehouse/remote-profile` */
  readonly name: string;
  /** the app's folder */
  readonly dir: string;
  /** dependency → declared range, from dependencies, peerDependencies and devDependencies (in that order of precedence) */
  readonly declared: Readonly<Record<string, string>>;
  /** the version installed for the app (what its build bundles), or null when nothing is installed */
  installed(pkg: string): string | null;
}

/** Finds the installed version of a package as seen from an app folder (injectable for tests). */
export type InstalledVersionReader = (pkg: string, dir: string) => string | null;

/** Node's module resolution from the app's folder: the copy webpack would bundle for it. */
export const readInstalledVersion: InstalledVersionReader = (pkg, dir) => {
  try {
    const manifest = createRequire(path.join(dir, 'package.json'))(`${pkg}/package.json`) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : null;
  } catch {
    return null;
  }
};

/** Reads an app's package.json; throws a message that says what to do when there is none. */
export function readAppPackage(dir: string, readInstalled: InstalledVersionReader = readInstalledVersion): AppPackage {
  const file = path.join(dir, 'package.json');
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist: point the check at an app folder (one with a package.json).`);
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    name?: unknown;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const name = typeof json.name === 'string' ? json.name : path.basename(dir);
  return {
    name,
    dir,
    declared: { ...json.devDependencies, ...json.peerDependencies, ...json.dependencies },
    installed: (pkg) => readInstalled(pkg, dir),
  };
}

/**
 * The shell that a remote in this repository is checked against: `<workspace root>/shell`, where the
 * workspace root is the nearest folder above the remote whose package.json has `workspaces`.
 */
export function findShellDir(remoteDir: string): string | null {
  let dir = path.resolve(remoteDir);
  for (;;) {
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
    const manifest = path.join(dir, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { workspaces?: unknown };
    if (json.workspaces !== undefined) {
      const shell = path.join(dir, 'shell');
      return fs.existsSync(path.join(shell, 'package.json')) ? shell : null;
    }
  }
}
