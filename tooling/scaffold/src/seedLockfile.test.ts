import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedLockfile } from './seedLockfile';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-seed-lock-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A tarball as `npm pack` makes it: package/package.json inside a .tgz. */
function pack(pkg: Record<string, unknown>): string {
  const staging = path.join(root, 'staging');
  fs.mkdirSync(path.join(staging, 'package'), { recursive: true });
  fs.writeFileSync(path.join(staging, 'package/package.json'), JSON.stringify(pkg));
  const tarball = path.join(root, 'pack.tgz');
  execFileSync('tar', ['czf', tarball, '-C', staging, 'package']);
  return tarball;
}

test("a packed workspace's nested dependencies are pinned under its installed folder, beside the hoisted tree", () => {
  const semver = (version: string) => ({
    version,
    resolved: `https://registry.npmjs.org/semver/-/semver-${version}.tgz`,
    integrity: 'sha512-x',
  });
  fs.writeFileSync(
    path.join(root, 'package-lock.json'),
    JSON.stringify({
      packages: {
        '': { name: 'gatehouse' },
        'node_modules/semver': { ...semver('6.3.2'), dev: true },
        'node_modules/@gatehouse/contract-check': { resolved: 'tooling/contract-check', link: true },
        'tooling/contract-check': { name: '@gatehouse/contract-check', version: '1.0.0' },
        'tooling/contract-check/node_modules/semver': semver('7.8.6'),
        'shell/node_modules/semver': semver('7.0.0'),
      },
    }),
  );
  const tarball = pack({ name: '@gatehouse/contract-check', version: '1.0.0', dependencies: { semver: '7.8.6' } });
  // package.json names the tarball relative to the new repository (root/billing); so does the lockfile
  const relative = path.relative(path.join(root, 'billing'), tarball);
  const lock = JSON.parse(
    seedLockfile(
      root,
      { name: 'billing', version: '0.1.0', dependencies: {}, devDependencies: { '@gatehouse/contract-check': `file:${relative}` } },
      path.join(root, 'billing'),
    ),
  ) as { packages: Record<string, Record<string, unknown>> };

  expect(lock.packages['node_modules/semver']).toEqual(semver('6.3.2'));
  expect(lock.packages['node_modules/@gatehouse/contract-check']).toEqual({
    version: '1.0.0',
    resolved: 'file:../pack.tgz',
    dependencies: { semver: '7.8.6' },
  });
  expect(lock.packages['node_modules/@gatehouse/contract-check/node_modules/semver']).toEqual(semver('7.8.6'));
  // Workspaces the remote does not install stay out.
  expect(Object.keys(lock.packages).filter((key) => key.includes('shell/'))).toEqual([]);
});
