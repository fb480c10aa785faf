import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newOutsideRemote, PUBLISHED_PACKAGES } from './outside';
import { makeTestRepo } from './testRepo';

const ROOT = path.join(__dirname, '..', '..', '..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-outside-unit-'));
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

test('writes a standalone repository that depends on the published packages at the platform version', async () => {
  const dir = path.join(work, 'billing');
  // a copy of the checkout: --outside adds the remote's dev address to the checkout's realm overlay
  const checkout = makeTestRepo();
  const registry = 'https://npm.example.com/';
  const pin = (name: string, version: string) => ({
    version,
    resolved: `${registry}${name}/-/${name.split('/')[1]}-${version}.tgz`,
    integrity: 'sha512-pinned',
  });
  const version = read('lerna.json').version as string;
  const pinned = Object.fromEntries(PUBLISHED_PACKAGES.map((name) => [name, pin(name, version)]));
  const result = await newOutsideRemote({ name: 'billing', dir, shellUrl: 'https://app.example.com', registry }, checkout, async () => ({
    pinned,
  }));
  fs.rmSync(checkout, { recursive: true, force: true });
  expect(result).toMatchObject({ ok: true });
  for (const file of [
    'package.json',
    'package-lock.json',
    'webpack.config.ts',
    'tsconfig.json',
    'jest.config.cjs',
    'src/App.tsx',
    'src/App.test.tsx',
    'src/bootstrap.tsx',
    'README.md',
    '.github/workflows/ci.yml',
    'public/config.json',
  ]) {
    expect(fs.existsSync(path.join(dir, file))).toBe(true);
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  expect(pkg.dependencies['@gatehouse/auth-lib']).toBe(version);
  expect(pkg.devDependencies['@gatehouse/federation']).toBe(version);
  expect(pkg.dependencies.react).toBe(read('shell/package.json').dependencies.react);
  expect(pkg.scripts.check).toBe('gatehouse-contract-check --shell https://app.example.com');
  // Nothing points back into this repository.
  for (const file of ['package.json', 'tsconfig.json', 'jest.config.cjs', 'webpack.config.ts']) {
    expect(fs.readFileSync(path.join(dir, file), 'utf8')).not.toMatch(/\.\.\/\.\.\/|tooling\//);
  }
  const ci = fs.readFileSync(path.join(dir, '.github/workflows/ci.yml'), 'utf8');
  for (const step of ['npm ci', 'npm run typecheck', 'npm test', 'npm run build', 'gatehouse-contract-check --shell'])
    expect(ci).toContain(step);
  // the production build is signed with the team's key, a CI secret (decisions/0117); the key file is git-ignored
  expect(ci).toContain('GATEHOUSE_RELEASE_KEY: ${{ secrets.GATEHOUSE_RELEASE_KEY }}');
  expect(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8')).toContain('*.release-key.pem');
  expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain('npx --package=@gatehouse/federation gatehouse-release-key');
  // The lockfile pins the platform's third-party tree, and the Gatehouse packages as the registry gave them.
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  expect(lock.packages['node_modules/react']).toMatchObject({
    version: pkg.dependencies.react,
    integrity: expect.stringMatching(/^sha512-/),
  });
  for (const name of PUBLISHED_PACKAGES) expect(lock.packages[`node_modules/${name}`]).toEqual(pin(name, version));
});

test('refuses a folder that is not empty and a bad name, writing nothing', async () => {
  fs.writeFileSync(path.join(work, 'keep.txt'), 'x');
  expect(await newOutsideRemote({ name: 'Bill-ing', dir: work }, ROOT)).toEqual({
    ok: false,
    problems: [
      expect.stringContaining('"Bill-ing" is not a valid remote name'),
      expect.stringContaining('--outside needs --registry <url> or --packages <dir>'),
      expect.stringContaining('is not empty'),
    ],
  });
  expect(fs.readdirSync(work)).toEqual(['keep.txt']);
});

test('the published packages share the version in lerna.json; every other workspace package is private', () => {
  const version = read('lerna.json').version;
  const folders: Record<string, string> = {
    '@gatehouse/auth-lib': 'auth-lib',
    '@gatehouse/config': 'tooling/config',
    '@gatehouse/federation': 'tooling/federation',
    '@gatehouse/contract-check': 'tooling/contract-check',
  };
  for (const name of PUBLISHED_PACKAGES) {
    const pkg = read(`${folders[name]}/package.json`);
    expect({ name: pkg.name, version: pkg.version, private: pkg.private }).toEqual({ name, version, private: undefined });
    expect(fs.existsSync(path.join(ROOT, folders[name]!, 'CHANGELOG.md'))).toBe(true);
  }
  for (const dir of ['shell', 'dev-idp', 'e2e', 'tooling/scaffold', 'remotes/profile', 'remotes/admin', 'remotes/reports']) {
    expect({ dir, private: read(`${dir}/package.json`).private }).toEqual({ dir, private: true });
  }
});
