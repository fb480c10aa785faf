import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { PinnedEntry } from './registryCheck';

type LockEntry = Record<string, unknown>;

/**
 * A package-lock.json for a remote in its own repository, seeded from this repository's lockfile: the
 * third-party packages at exactly the versions (and integrity hashes) the platform is tested with, and
 * the Gatehouse packages from their tarballs (`file:` specs) or as the registry gave them (`pinned`: the tarball's
 * address and its sha512 integrity, so `npm ci` installs those bytes or fails). npm prunes what the remote does not need. Besides pinning the tested tree, this is what lets
 * `npm install` work from the npm cache alone: npm 11 resolves a package without a lockfile from its
 * full registry document, which an npm cache filled by lockfile installs does not hold (decisions/0017).
 */
export function seedLockfile(
  root: string,
  manifest: { name: string; version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> },
  /** the new repository's folder: `file:` specs are relative to it */
  repoDir: string,
  /** the Gatehouse packages from a registry: name → their lockfile entry (version, resolved, integrity…) */
  pinned: Readonly<Record<string, PinnedEntry>> = {},
): string {
  const source = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const rootEntry = {
    name: manifest.name,
    version: manifest.version,
    dependencies: manifest.dependencies,
    devDependencies: manifest.devDependencies,
  };
  const packages: Record<string, LockEntry> = { '': rootEntry };
  const strip = ({ dev: _dev, optional: _optional, devOptional: _devOptional, peer: _peer, ...rest }: LockEntry): LockEntry => rest;
  for (const [location, entry] of Object.entries(source.packages)) {
    // Only installed packages; workspace folders and their links are this repository's own.
    if (!location.startsWith('node_modules/') || entry['link'] === true || location.startsWith('node_modules/@gatehouse/')) continue;
    packages[location] = strip(entry);
  }
  const gatehouse = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }).filter(
    ([name, spec]) => name.startsWith('@gatehouse/') && (spec.startsWith('file:') || Object.hasOwn(pinned, name)),
  );
  for (const [name, spec] of gatehouse) {
    packages[`node_modules/${name}`] = spec.startsWith('file:') ? tarballEntry(spec.slice('file:'.length), repoDir) : { ...pinned[name] };
    // What the package's workspace has nested (a version the hoisted tree does not hold, e.g. contract-check's
    // semver 7 beside the root's semver 6) goes under its installed folder; without it npm would have to ask
    // the registry for that package's document, which an offline install cannot.
    const folder = source.packages[`node_modules/${name}`]?.['resolved'];
    if (typeof folder !== 'string') continue;
    for (const [location, entry] of Object.entries(source.packages))
      if (location.startsWith(`${folder}/node_modules/`) && entry['link'] !== true)
        packages[`node_modules/${name}${location.slice(folder.length)}`] = strip(entry);
  }
  return `${JSON.stringify({ name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}

/** The lockfile entry of a packed tarball (`tarball` as package.json names it), from the package.json inside it. */
function tarballEntry(tarball: string, repoDir: string): LockEntry {
  const pkg = JSON.parse(readFromTarball(path.resolve(repoDir, tarball), 'package/package.json')) as Record<string, unknown>;
  const entry: LockEntry = { version: pkg['version'], resolved: `file:${tarball}` };
  for (const field of ['license', 'dependencies', 'peerDependencies', 'bin', 'engines'])
    if (pkg[field] !== undefined) entry[field] = pkg[field];
  return entry;
}

/** One file of a .tgz (ustar), without a dependency for it. */
function readFromTarball(tarball: string, wanted: string): string {
  const tar = zlib.gunzipSync(fs.readFileSync(tarball));
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    if (name === '') break;
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    const full = prefix ? `${prefix}/${name}` : name;
    if (full === wanted) return tar.subarray(offset + 512, offset + 512 + size).toString('utf8');
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${tarball} has no ${wanted}: is it a package made by \`npm pack\`?`);
}
