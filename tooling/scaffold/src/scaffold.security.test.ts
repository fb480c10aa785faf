// Security round (issue 24): the scaffold checks every value the same way inside the repository and with
// --outside, so nothing typed lands as code in a generated file or a command line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runNewRemote } from './cli';
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
