import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, FlattenedSign, generateKeyPair } from 'jose';
import { integrityOf, type ReleasePublicKey } from '@gatehouse/federation/release';
import { startFakeShell, type FakeShell } from '../test/fakeShell';
import { runContractCheckCli } from './deployedShellCli';

// A deployed shell over real HTTP (a local server), and remote builds as folders with dist/mf-manifest.json.

const shared = (versions: Record<string, string>) =>
  Object.entries(versions).map(([name, version]) => ({ id: `x:${name}`, name, version, singleton: true, requiredVersion: `^${version}` }));
const SHELL_VERSIONS = {
  react: '19.3.1',
  'react/jsx-runtime': '19.3.1',
  'react-dom': '19.3.1',
  'react-dom/client': '19.3.1',
  'react-router-dom': '7.18.5',
  '@gatehouse/auth-lib': '1.0.0',
};

let shell: FakeShell;
let shellUrl: string;
let work: string;

beforeAll(async () => {
  shell = await startFakeShell(SHELL_VERSIONS, [
    { name: 'billing', manifest: 'https://billing.example.com/mf-manifest.json', route: '/billing', title: 'Billing' },
  ]);
  shellUrl = shell.url;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-contract-'));
});
afterAll(async () => {
  await shell.close();
  fs.rmSync(work, { recursive: true, force: true });
});

function remoteBuild(name: string, versions: Record<string, string>): string {
  const dir = path.join(work, name);
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'dist', 'mf-manifest.json'), JSON.stringify({ id: name, name, shared: shared(versions) }));
  return dir;
}

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runContractCheckCli(argv, { cwd: work, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('passes for a remote built against what the deployed shell shares, and finds its registry entry', async () => {
  const dir = remoteBuild('billing', SHELL_VERSIONS);
  const result = await run(['--shell', shellUrl, '--remote', dir]);
  expect(result.err).toBe('');
  expect(result.code).toBe(0);
  expect(result.out).toContain('✓ The remote fits the shell');
  expect(result.out).toContain('lists "billing" at /billing');
});

test('fails for a remote built against React 18, naming the package and what to do', async () => {
  const dir = remoteBuild('legacy', { ...SHELL_VERSIONS, react: '18.3.1', 'react-dom': '18.3.1' });
  const result = await run(['--shell', shellUrl, '--remote', dir]);
  expect(result.code).toBe(1);
  expect(result.err).toMatch(/✗ react +remote wants \^18\.3\.1 \(installed 18\.3\.1\), shell provides 19\.3\.1/);
  expect(result.err).toMatch(/✗ react-dom /);
  expect(result.err).toContain('set "react": "19.3.1" in the remote\'s package.json');
  expect(result.err).toContain('does not list "legacy" yet');
});

test('fails for a newer auth-lib (shared strictly), and for a package the remote does not share as a singleton', async () => {
  const dir = remoteBuild('newer', { ...SHELL_VERSIONS, '@gatehouse/auth-lib': '1.4.0' });
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'dist', 'mf-manifest.json'), 'utf8'));
  manifest.shared.find((s: { name: string }) => s.name === 'react-router-dom').singleton = false;
  fs.writeFileSync(path.join(dir, 'dist', 'mf-manifest.json'), JSON.stringify(manifest));
  const result = await run(['--shell', shellUrl, '--remote', dir]);
  expect(result.code).toBe(1);
  expect(result.err).toMatch(/✗ @gatehouse\/auth-lib .*\n.*shared strictly/);
  expect(result.err).toMatch(/✗ react-router-dom .*\n.*does not, so the page would run two copies/);
});

test('says what to do when the remote is not built or the address is not a shell', async () => {
  const unbuilt = path.join(work, 'unbuilt');
  fs.mkdirSync(unbuilt);
  expect(await run(['--shell', shellUrl, '--remote', unbuilt])).toMatchObject({
    code: 2,
    err: expect.stringContaining('build the remote first'),
  });
  const dir = remoteBuild('billing2', SHELL_VERSIONS);
  expect(await run(['--shell', `${shellUrl}/nowhere/`, '--remote', dir])).toMatchObject({
    code: 2,
    err: expect.stringContaining('answered HTTP 404'),
  });
});

describe("the build's signed release against the keys the deployed registry pins (decisions/0117)", () => {
  let signedShell: FakeShell;
  let key: { privateKey: CryptoKey; pinned: ReleasePublicKey; kid: string };
  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const { x, y } = await exportJWK(publicKey);
    const pinned = { kty: 'EC', crv: 'P-256', x: x!, y: y! } as const;
    key = { privateKey, pinned, kid: await calculateJwkThumbprint(pinned) };
    const entry = { name: 'payroll', manifest: 'https://payroll.example.com/mf-manifest.json', route: '/payroll', title: 'Payroll' };
    signedShell = await startFakeShell(SHELL_VERSIONS, [{ ...entry, signingKeys: [pinned] }]);
  });
  afterAll(() => signedShell.close());

  /** a build of the remote "payroll" in its own folder */
  async function signedBuild(folder: string, signWith: CryptoKey | undefined): Promise<string> {
    const dir = path.join(remoteBuild(folder, SHELL_VERSIONS), '..', `${folder}-payroll`);
    fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'dist', 'mf-manifest.json'),
      JSON.stringify({ id: 'payroll', name: 'payroll', shared: shared(SHELL_VERSIONS) }),
    );
    fs.writeFileSync(path.join(dir, 'dist', 'remoteEntry.js'), 'var payroll;');
    const files: Record<string, string> = {};
    for (const file of ['mf-manifest.json', 'remoteEntry.js'])
      files[file] = await integrityOf(fs.readFileSync(path.join(dir, 'dist', file)));
    const payload = new TextEncoder().encode(JSON.stringify({ version: 1, name: 'payroll', files }));
    const release = signWith
      ? await new FlattenedSign(payload).setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'gatehouse-release+json' }).sign(signWith)
      : { payload: Buffer.from(payload).toString('base64url') };
    fs.writeFileSync(path.join(dir, 'dist', 'mf-release.json'), JSON.stringify(release));
    return dir;
  }

  test('passes a build signed with the pinned key whose files are the ones it signed', async () => {
    const dir = await signedBuild('payroll', key.privateKey);
    const result = await run(['--shell', signedShell.url, '--remote', dir]);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain(`✓ Release: signed with the pinned key ${key.kid}; its 2 files are the ones it signed.`);
  });

  test('fails an unsigned build, a build changed after signing, and a build without a release, saying what to do', async () => {
    const unsigned = await run(['--shell', signedShell.url, '--remote', await signedBuild('payroll-unsigned', undefined)]);
    expect(unsigned.code).toBe(1);
    expect(unsigned.err).toContain('✗ Release: payroll\'s release is refused: the release of "payroll" is not signed');
    expect(unsigned.err).toContain('GATEHOUSE_RELEASE_KEY');

    const changedDir = await signedBuild('payroll-changed', key.privateKey);
    fs.appendFileSync(path.join(changedDir, 'dist', 'remoteEntry.js'), ' ');
    const changed = await run(['--shell', signedShell.url, '--remote', changedDir]);
    expect(changed.code).toBe(1);
    expect(changed.err).toContain('remoteEntry.js is not the file the release of "payroll" signed');

    const partialDir = await signedBuild('payroll-partial', key.privateKey);
    fs.rmSync(path.join(partialDir, 'dist', 'remoteEntry.js'));
    const partial = await run(['--shell', signedShell.url, '--remote', partialDir]);
    expect(partial.code).toBe(1);
    expect(partial.err).toContain('mf-release.json lists remoteEntry.js, which');

    const noneDir = await signedBuild('payroll-none', key.privateKey);
    fs.rmSync(path.join(noneDir, 'dist', 'mf-release.json'));
    const none = await run(['--shell', signedShell.url, '--remote', noneDir]);
    expect(none.code).toBe(1);
    expect(none.err).toContain('payroll pins signing keys, but its mf-release.json');
  });

  test('a remote whose registry entry pins no keys is told so, and passes', async () => {
    const result = await run(['--shell', shellUrl, '--remote', remoteBuild('billing', SHELL_VERSIONS)]);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Release: the registry pins no signing keys for "billing", so the shell does not check its releases.');
  });
});
