import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The repository files the scaffold reads or edits, copied from this checkout into a temporary folder for a test. */
const COPIED = [
  'shell/public/config.json',
  'shell/package.json',
  'shell/webpack.config.ts',
  'deploy/keycloak/gatehouse-realm.json',
  'tooling/federation/package.json',
  // what --outside reads: the versions it pins and the lockfile it seeds from
  'package.json',
  'package-lock.json',
  'auth-lib/package.json',
  'tooling/config/package.json',
  'tooling/contract-check/package.json',
  ...['profile', 'admin', 'reports'].flatMap((r) => [`remotes/${r}/package.json`, `remotes/${r}/webpack.config.ts`]),
];
const REPO = path.join(__dirname, '..', '..', '..');

export function makeTestRepo(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-scaffold-'));
  for (const file of COPIED) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO, file), path.join(root, file));
  }
  return root;
}

/** Every file under `root` with its content, to show that a refused command changed nothing. */
export function snapshotFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(root, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return files;
}

/**
 * `--registry` for a test that calls newOutsideRemote itself: a registry address, and the check that "asked" it,
 * answering with every published package pinned (its tarball there and a digest of sha512's form).
 */
export function pinningRegistry(root: string): {
  registry: string;
  check: () => Promise<{ pinned: Record<string, { version: string; resolved: string; integrity: string }> }>;
} {
  const registry = 'https://npm.example.com/';
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'auth-lib', 'package.json'), 'utf8')) as { version: string }).version;
  const names = ['@gatehouse/auth-lib', '@gatehouse/config', '@gatehouse/federation', '@gatehouse/contract-check'];
  const pinned = Object.fromEntries(
    names.map((name) => [
      name,
      { version, resolved: `${registry}${name}/-/${name.split('/')[1]}-${version}.tgz`, integrity: `sha512-${name}` },
    ]),
  );
  return { registry, check: async () => ({ pinned }) };
}
