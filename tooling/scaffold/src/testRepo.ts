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
