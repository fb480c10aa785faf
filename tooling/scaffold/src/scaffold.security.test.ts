// Security round: the scaffold checks every value the same way inside the repository and with
// --outside, so nothing typed lands as code in a generated file or a command line.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runNewRemote } from './cli';
import { PUBLISHED_PACKAGES, platformVersion } from './outside';
import { encoderFor } from './template';
import { makeTestRepo } from './testRepo';

/** What a registry's document gives for one version: its tarball and a sha512 digest (made up, but of the form). */
const pinnedFor = (registry: string, pkg: string, version: string) => ({
  version,
  resolved: `${registry}${pkg}/-/${pkg.split('/')[1]}-${version}.tgz`,
  integrity: `sha512-${Buffer.from(`${pkg}@${version}`).toString('base64')}`,
});

async function run(argv: string[], root: string, cwd = root) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runNewRemote([...argv, '--root', root], {
    cwd,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    portIsFree: async () => true,
    install: jest.fn(async () => 0),
    // the registry has the packages, with their digests (outsideRegistry.test.ts asks one over HTTP)
    askRegistry: async (registry, pkg, version) => ({ kind: 'has', pinned: pinnedFor(registry, pkg, version) }),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let root: string;
let work: string;
beforeEach(() => {
  root = makeTestRepo();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-scaffold-security-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

const HOSTILE = [
  [
    ['--shell-url', 'https://a;touch${IFS}/tmp/x'],
    /--shell-url "https:\/\/a;touch\$\{IFS\}\/tmp\/x" is not the address of a deployed shell/,
  ],
  [['--title', "Bil'ling"], /--title "Bil'ling": use letters, digits, spaces/],
  [['--port', 'abc'], /--port abc is not a port: use a number from 1024 to 65535/],
  [['--route', '/..'], /--route "\/\.\." is not a route/],
] as const;

test.each(HOSTILE)('--outside refuses %p with a message that names it, and writes nothing', async (flags, message) => {
  const dir = path.join(work, 'billing');
  const { code, err } = await run(['billing', '--outside', dir, ...flags], root, work);
  expect(code).toBe(1);
  expect(err).toMatch(message);
  expect(fs.existsSync(dir)).toBe(false);
});

test.each(HOSTILE.filter(([flags]) => flags[0] !== '--shell-url'))(
  'inside the repository %p is refused with the same message',
  async (flags, message) => {
    const { code, err } = await run(['billing', '--skip-install', ...flags], root);
    expect(code).toBe(1);
    expect(err).toMatch(message);
    expect(fs.existsSync(path.join(root, 'remotes', 'billing'))).toBe(false);
  },
);

test.each(['constructor:x', '__proto__:x', 'toString:x'])('--client-role %s is an unknown client, not a stack trace', async (spec) => {
  const client = spec.split(':')[0];
  const { code, err } = await run(['billing', '--skip-install', '--client-role', spec], root);
  expect(code).toBe(1);
  expect(err).toContain(`The demo realm has no roles for a client "${client}"`);
});

test.each([[[]], [['--outside', 'OUT']]])('the name "constructor" is refused (%p)', async (extra) => {
  const flags = extra.map((flag) => (flag === 'OUT' ? path.join(work, 'constructor') : flag));
  const { code, err } = await run(['constructor', '--skip-install', ...flags], root, work);
  expect(code).toBe(1);
  expect(err).toContain('"constructor" is reserved; choose another name.');
});

test('--outside writes the shell URL it was given, where the check runs it', async () => {
  const dir = path.join(work, 'billing');
  // --outside reads the checkout's package versions and adds the dev address to its realm overlay: a copy
  const checkout = root;
  const argv = [
    'billing',
    '--outside',
    dir,
    '--registry',
    'https://npm.example.com/',
    '--shell-url',
    'https://shell.example.com/app',
    '--port',
    '3050',
  ];
  const { code, err } = await run(argv, checkout, work);
  expect(err).toBe('');
  expect(code).toBe(0);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.check).toBe('gatehouse-contract-check --shell https://shell.example.com/app');
  expect(fs.readFileSync(path.join(dir, 'webpack.config.ts'), 'utf8')).toContain('port: 3050,');
});

// Security round four: the folder --packages names reached package.json unescaped, so this
// folder name closed the dependency's string and added a `preinstall` script that `npm install` would run.
const PACKAGES_PAYLOAD = 'packs"},"scripts":{"preinstall":"echo PWNED > pwned.txt"},"x":{"y":"';

test('--packages naming a folder whose name closes a JSON string: package.json and the lockfile hold it as a string, no script', async () => {
  const version = platformVersion(root);
  const packs = path.join(work, PACKAGES_PAYLOAD);
  const staging = fs.mkdtempSync(path.join(work, 'staging-'));
  fs.mkdirSync(path.join(staging, 'package'));
  fs.mkdirSync(packs);
  for (const name of PUBLISHED_PACKAGES) {
    fs.writeFileSync(path.join(staging, 'package/package.json'), JSON.stringify({ name, version }));
    execFileSync('tar', ['czf', path.join(packs, `${name.slice(1).replace('/', '-')}-${version}.tgz`), '-C', staging, 'package']);
  }
  const dir = path.join(work, 'billing');
  const { code, err } = await run(['billing', '--outside', dir, '--packages', packs, '--skip-install'], root, work);
  expect(err).toBe('');
  expect(code).toBe(0);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
  };
  expect(Object.keys(pkg.scripts).sort()).toEqual(['build', 'check', 'start', 'test', 'typecheck']);
  expect(Object.keys(pkg).sort()).not.toContain('x');
  expect(pkg.dependencies['@gatehouse/auth-lib']).toBe(`file:../${PACKAGES_PAYLOAD}/gatehouse-auth-lib-${version}.tgz`);
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { resolved?: string; scripts?: unknown }>;
  };
  expect(lock.packages['node_modules/@gatehouse/auth-lib']?.resolved).toBe(`file:../${PACKAGES_PAYLOAD}/gatehouse-auth-lib-${version}.tgz`);
  expect(lock.packages['']).not.toHaveProperty('scripts');
});

test.each([
  ['package.json', 'a"b\\c\n', 'a\\"b\\\\c\\n'],
  ['public/config.json', 'x"}', 'x\\"}'],
])('a value written into %s is the inside of a JSON string', (file, value, written) => {
  expect(encoderFor(file)(value, 'key')).toBe(written);
});

test.each(['webpack.config.ts', 'src/App.tsx', '.github/workflows/ci.yml', 'README.md', 'index.html'])(
  'a value that is not plain is refused in %s, not written',
  (file) => {
    for (const value of ["it's", 'a"b', '<b>', '`x`', '${x}', 'a\nb', "' }}\n  run: x"])
      expect(() => encoderFor(file)(value, 'title')).toThrow(`{{title}} cannot be written into ${file}`);
    expect(encoderFor(file)('Billing 2.0 https://app.example.com/x_y~z', 'title')).toBe('Billing 2.0 https://app.example.com/x_y~z');
  },
);

// Security round four: this project does not own the @gatehouse scope on the public npm registry,
// so an outside remote names where the packages come from, and its lockfile pins what that registry gave.
test('--outside without --registry or --packages is refused, saying how, before any registry is asked or a file written', async () => {
  const dir = path.join(work, 'billing');
  const askRegistry = jest.fn();
  const err: string[] = [];
  const code = await runNewRemote(['billing', '--outside', dir, '--root', root], {
    cwd: work,
    out: () => {},
    err: (t) => err.push(t),
    askRegistry,
    install: jest.fn(async () => 0),
  });
  expect(code).toBe(1);
  expect(err.join('\n')).toContain('--outside needs --registry <url> or --packages <dir>');
  expect(err.join('\n')).toContain('npm run publish:packages -- --registry <url>');
  expect(err.join('\n')).toContain('npm run pack:packages -- <dir>');
  expect(err.join('\n')).toContain('this project does not own the @gatehouse scope on the public npm registry');
  expect(askRegistry).not.toHaveBeenCalled();
  expect(fs.existsSync(dir)).toBe(false);
});

test('--registry: package.json names the exact platform version and the lockfile pins each package the registry gave, with its integrity', async () => {
  const dir = path.join(work, 'billing');
  const registry = 'https://npm.example.com/';
  const { code, err } = await run(['billing', '--outside', dir, '--registry', registry, '--skip-install'], root, work);
  expect(err).toBe('');
  expect(code).toBe(0);
  const version = platformVersion(root);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  for (const name of PUBLISHED_PACKAGES) {
    expect({ name, spec: pkg.dependencies[name] ?? pkg.devDependencies[name] }).toEqual({ name, spec: version });
    expect(lock.packages[`node_modules/${name}`]).toEqual(pinnedFor(registry, name, version));
  }
});

test('--registry that gives a package without an integrity, or cannot be asked, refuses the command: nothing unpinned is written', async () => {
  for (const answer of [{ kind: 'has' as const }, { kind: 'unreachable' as const, reason: 'connect ECONNREFUSED' }]) {
    const dir = path.join(work, `billing-${answer.kind}`);
    const err: string[] = [];
    const code = await runNewRemote(['billing', '--outside', dir, '--registry', 'https://npm.example.com/', '--root', root], {
      cwd: work,
      out: () => {},
      err: (t) => err.push(t),
      askRegistry: async () => answer,
      install: jest.fn(async () => 0),
    });
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(/package-lock\.json could not pin/);
    expect(err.join('\n')).toContain('--packages <dir>');
    expect(fs.existsSync(dir)).toBe(false);
  }
});
