// Security round (issue 24): the scaffold checks every value the same way inside the repository and with
// --outside, so nothing typed lands as code in a generated file or a command line.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runNewRemote } from './cli';
import { PUBLISHED_PACKAGES, platformVersion } from './outside';
import { encoderFor } from './template';
import { makeTestRepo } from './testRepo';

async function run(argv: string[], root: string, cwd = root) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runNewRemote([...argv, '--root', root], {
    cwd,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    portIsFree: async () => true,
    install: jest.fn(async () => 0),
    // the registry has the packages (registryCheck.test.ts asks a real one)
    configuredRegistry: () => 'https://npm.example.com/',
    askRegistry: async () => ({ kind: 'has' }),
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
  const argv = ['billing', '--outside', dir, '--shell-url', 'https://shell.example.com/app', '--port', '3050'];
  const { code, err } = await run(argv, checkout, work);
  expect(err).toBe('');
  expect(code).toBe(0);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.check).toBe('gatehouse-contract-check --shell https://shell.example.com/app');
  expect(fs.readFileSync(path.join(dir, 'webpack.config.ts'), 'utf8')).toContain('port: 3050,');
});

// Security round four (issue 47, item 1): the folder --packages names reached package.json unescaped, so this
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
