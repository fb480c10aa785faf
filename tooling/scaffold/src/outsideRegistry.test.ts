// Where a remote in its own repository gets the Gatehouse packages from: a registry (asked first, over real
// HTTP, so an E404 is said before anything is written) or tarballs named by paths relative to the new repository.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runNewRemote } from './cli';
import { platformVersion, PUBLISHED_PACKAGES } from './outside';
import { makeTestRepo, snapshotFiles } from './testRepo';

const CHECKOUT = path.join(__dirname, '..', '..', '..');
const VERSION = platformVersion(CHECKOUT);

let work: string;
let server: http.Server;
let registry: string;
/** what the fake registry holds: package name → its versions */
let held: Record<string, string[]>;
let asked: string[];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    asked.push(`${request.url} ${request.headers.accept}`);
    const name = decodeURIComponent((request.url ?? '/').slice(1));
    const versions = held[name];
    if (!versions) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    response.writeHead(200, { 'content-type': 'application/json' });
    // npm's abbreviated document: each version with its tarball and digest (`dist`) and its dependencies
    const document = (v: string) => ({
      name,
      version: v,
      dependencies: { react: '19.0.0' },
      dist: { tarball: `${registry}${name}/-/${name.split('/')[1]}-${v}.tgz`, integrity: integrityOf(name, v) },
    });
    response.end(JSON.stringify({ name, versions: Object.fromEntries(versions.map((v) => [v, document(v)])) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
// the checkout the scaffold changes (--outside adds the remote's dev address to its realm overlay): a copy
let root: string;
beforeAll(() => {
  root = makeTestRepo();
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-outside-registry-'));
  held = {};
  asked = [];
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

/** The digest the fake registry gives for a version (of sha512's form). */
const integrityOf = (name: string, version: string) => `sha512-${Buffer.from(`${name}@${version}`).toString('base64')}`;
/** The registry holds the four packages at the platform version. */
const holdAll = () => {
  held = Object.fromEntries(PUBLISHED_PACKAGES.map((name) => [name, [VERSION]]));
};

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const install = jest.fn(async () => 0);
  const code = await runNewRemote([...argv, '--root', root], {
    cwd: work,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    install,
  });
  return { code, out: out.join('\n'), err: err.join('\n'), install };
}

/** A tarball as `npm pack` makes it (package/package.json inside a .tgz), named as `npm pack` names it. */
function pack(dir: string, name: string): void {
  const staging = fs.mkdtempSync(path.join(work, 'staging-'));
  fs.mkdirSync(path.join(staging, 'package'));
  fs.writeFileSync(path.join(staging, 'package/package.json'), JSON.stringify({ name, version: VERSION }));
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['czf', path.join(dir, `${name.slice(1).replace('/', '-')}-${VERSION}.tgz`), '-C', staging, 'package']);
}

test('a registry without @gatehouse/auth-lib (E404) is said up front, naming the commands that make the packages available; nothing is written', async () => {
  const dir = path.join(work, 'billing');
  const { code, err, install } = await run(['billing', '--outside', dir, '--registry', registry]);
  expect(code).toBe(1);
  expect(err).toContain(`${registry} has no @gatehouse/auth-lib (E404), so \`npm install\` in the new repository would fail.`);
  expect(err).toContain('npm run publish:packages -- --registry <your registry>    then scaffold again with --registry <your registry>');
  expect(err).toContain('npm run pack:packages -- <dir>                             then scaffold again with --packages <dir>');
  expect(asked).toEqual(['/@gatehouse%2fauth-lib application/vnd.npm.install-v1+json']);
  expect(fs.existsSync(dir)).toBe(false);
  expect(install).not.toHaveBeenCalled();
});

test('another version is not enough; neither is a registry that lacks one of the four packages', async () => {
  held = { '@gatehouse/auth-lib': ['0.9.0'] };
  const { code, err } = await run(['billing', '--outside', path.join(work, 'billing'), '--registry', registry]);
  expect(code).toBe(1);
  expect(err).toContain(`${registry} has @gatehouse/auth-lib, but not version ${VERSION} (it has 0.9.0).`);
  expect(fs.readdirSync(work)).toEqual([]);
  holdAll();
  delete held['@gatehouse/contract-check'];
  const second = await run(['billing', '--outside', path.join(work, 'billing'), '--registry', registry]);
  expect(second.code).toBe(1);
  expect(second.err).toContain(`${registry} has no @gatehouse/contract-check (E404)`);
  expect(fs.readdirSync(work)).toEqual([]);
});

test('--registry: the lockfile pins each package at the tarball and integrity the registry gave (asked over HTTP)', async () => {
  holdAll();
  const dir = path.join(work, 'billing');
  const { code, err } = await run(['billing', '--outside', dir, '--registry', registry, '--skip-install']);
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(asked.map((line) => line.split(' ')[0])).toEqual(PUBLISHED_PACKAGES.map((name) => `/${name.replace('/', '%2f')}`));
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  for (const name of PUBLISHED_PACKAGES) {
    expect(lock.packages[`node_modules/${name}`]).toEqual({
      version: VERSION,
      resolved: `${registry}${name}/-/${name.split('/')[1]}-${VERSION}.tgz`,
      integrity: integrityOf(name, VERSION),
      dependencies: { react: '19.0.0' },
    });
  }
});

test('--registry: the new repository names it in .npmrc for the @gatehouse scope, is installed, and the next steps check against --shell-url', async () => {
  holdAll();
  const dir = path.join(work, 'billing');
  const { code, out, err, install } = await run([
    'billing',
    '--outside',
    dir,
    '--registry',
    registry,
    '--shell-url',
    'https://app.example.com',
    '--port',
    '3050',
  ]);
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(fs.readFileSync(path.join(dir, '.npmrc'), 'utf8')).toBe(`@gatehouse:registry=${registry}\n`);
  expect(install).toHaveBeenCalledWith(dir);
  expect(out).toContain('npm run check                     does the build fit what the shell at https://app.example.com shares?');
  expect(out).toContain('npm start                         the remote alone at http://localhost:3050, signing in by itself');
  expect(out).not.toContain('<the deployed shell>');
  expect(out).not.toMatch(/^ {2}npm install/m);
});

test('without --shell-url the next steps say which address to give the check; with --skip-install they start with npm install', async () => {
  holdAll();
  const { code, out, install } = await run(['billing', '--outside', path.join(work, 'billing'), '--registry', registry, '--skip-install']);
  expect(code).toBe(0);
  expect(install).not.toHaveBeenCalled();
  expect(out).toContain('npx --package=@gatehouse/contract-check gatehouse-contract-check --shell <the deployed shell>');
  expect(out).toMatch(/^ {2}npm install && npm install {2,}twice, the first time only/m);
  // the entry a checkout's dev shell takes from its git-ignored shell/config.local.json
  expect(out).toContain(
    '  { "remotes": [{"name":"billing","manifest":"http://localhost:3004/mf-manifest.json","route":"/billing","title":"Billing"}] }',
  );
  // no made-up shell address: the check asks for GATEHOUSE_SHELL_URL, CI skips it with a warning without one
  const dir = path.join(work, 'billing');
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  expect(pkg.scripts.check).toBe(
    'gatehouse-contract-check --shell "${GATEHOUSE_SHELL_URL:?set GATEHOUSE_SHELL_URL to the deployed shell, e.g. https://app.example.com}"',
  );
  const ci = fs.readFileSync(path.join(dir, '.github/workflows/ci.yml'), 'utf8');
  expect(ci).toContain("GATEHOUSE_SHELL_URL: ${{ vars.GATEHOUSE_SHELL_URL || '' }}");
  expect(ci).toContain("if: env.GATEHOUSE_SHELL_URL != ''");
  expect(ci).not.toContain('example.com }}');
});

test('--packages: package.json and the lockfile name the tarballs relative to the new repository; no file holds a path of this machine', async () => {
  const packs = path.join(work, 'packs');
  for (const name of ['@gatehouse/auth-lib', '@gatehouse/config', '@gatehouse/federation', '@gatehouse/contract-check']) pack(packs, name);
  const dir = path.join(work, 'teams', 'billing');
  const { code, err, out } = await run(['billing', '--outside', dir, '--packages', packs]);
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(asked).toEqual([]); // tarballs need no registry
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  expect(pkg.dependencies['@gatehouse/auth-lib']).toBe(`file:../../packs/gatehouse-auth-lib-${VERSION}.tgz`);
  expect(pkg.devDependencies['@gatehouse/federation']).toBe(`file:../../packs/gatehouse-federation-${VERSION}.tgz`);
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  expect(lock.packages['node_modules/@gatehouse/contract-check'].resolved).toBe(`file:../../packs/gatehouse-contract-check-${VERSION}.tgz`);
  expect(out).toContain(`The Gatehouse packages are tarballs at ../../packs/gatehouse-auth-lib-${VERSION}.tgz`);
  for (const [file, text] of Object.entries(snapshotFiles(dir))) {
    expect({ file, absolute: text.includes(work) || /file:\//.test(text) }).toEqual({ file, absolute: false });
  }
});

test('--registry and --packages together are refused', async () => {
  const { code, err } = await run(['billing', '--outside', path.join(work, 'billing'), '--registry', registry, '--packages', work]);
  expect(code).toBe(1);
  expect(err).toContain('--registry and --packages exclude each other');
});

test.each([
  ['a remote in its own repository', '--outside'],
  ['a workspace remote', null],
])('every $schema of %s resolves to the schema @gatehouse/federation ships, once it is installed', async (_, mode) => {
  holdAll();
  // @gatehouse/federation installed as npm installs it: node_modules/@gatehouse/federation of the repository
  // (a remote's own, or this checkout's root, which links the workspace package)
  const federation = path.join(CHECKOUT, 'tooling/federation');
  let dir: string;
  let repository: string;
  if (mode === '--outside') {
    dir = repository = path.join(work, 'billing');
    expect((await run(['billing', '--outside', dir, '--registry', registry])).code).toBe(0);
  } else {
    const { makeTestRepo } = await import('./testRepo');
    repository = makeTestRepo();
    dir = path.join(repository, 'remotes/billing');
    const out: string[] = [];
    const code = await runNewRemote(['billing', '--root', repository, '--skip-install'], {
      cwd: repository,
      out: (t) => out.push(t),
      err: (t) => out.push(t),
      portIsFree: async () => true,
    });
    expect({ code, out }).toMatchObject({ code: 0 });
  }
  const schemas = Object.entries(snapshotFiles(dir)).flatMap(([file, text]) => {
    const found = /"\$schema":\s*"([^"]+)"/.exec(text);
    return found ? [{ file, schema: path.resolve(path.dirname(path.join(dir, file)), found[1]!) }] : [];
  });
  fs.mkdirSync(path.join(repository, 'node_modules/@gatehouse'), { recursive: true });
  fs.symlinkSync(federation, path.join(repository, 'node_modules/@gatehouse/federation'));
  // …and @gatehouse/config, which federation depends on: its schema's standaloneConfig is what federation's points to
  const config = path.join(CHECKOUT, 'tooling/config');
  fs.symlinkSync(config, path.join(repository, 'node_modules/@gatehouse/config'));
  const files = JSON.parse(fs.readFileSync(path.join(federation, 'package.json'), 'utf8')).files as string[];
  const configFiles = JSON.parse(fs.readFileSync(path.join(config, 'package.json'), 'utf8')).files as string[];
  expect(schemas.map(({ file }) => file)).toEqual(['public/config.json']);
  for (const { schema } of schemas) {
    expect(fs.existsSync(schema)).toBe(true);
    // …and it is a file the published package ships
    expect(files).toContain(
      path.relative(fs.realpathSync(path.join(repository, 'node_modules/@gatehouse/federation')), fs.realpathSync(schema)),
    );
    // its $ref, resolved from where the repository sees it (node_modules/@gatehouse/federation), reaches the
    // schema @gatehouse/config ships
    const [ref, pointer] = (JSON.parse(fs.readFileSync(schema, 'utf8')) as { $ref: string }).$ref.split('#');
    const target = path.resolve(path.dirname(schema), ref!);
    expect(fs.existsSync(target)).toBe(true);
    expect(path.relative(path.join(repository, 'node_modules/@gatehouse/config'), target)).toBe('config.schema.json');
    expect(configFiles).toContain('config.schema.json');
    expect(pointer).toBe('/definitions/standaloneConfig');
  }
  if (mode === null) fs.rmSync(repository, { recursive: true, force: true });
});
