import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeShell, type FakeShell } from '../test/fakeShell';
import { runContractCheckCli } from './deployedShellCli';

// The contract check on manifests that real Vite (@module-federation/vite) and Rsbuild (@module-federation/rsbuild-plugin)
// builds wrote with the Gatehouse presets (test/fixtures/manifests; tooling/federation/src/otherBundlers.test.ts builds
// them again and compares), against a deployed shell over real HTTP.

const MANIFESTS = path.join(__dirname, '..', 'test', 'fixtures', 'manifests');
interface SharedEntry {
  name: string;
  version: string;
  singleton: boolean;
  requiredVersion: string;
}
const manifestOf = (bundler: string) =>
  JSON.parse(fs.readFileSync(path.join(MANIFESTS, `${bundler}.mf-manifest.json`), 'utf8')) as { name: string; shared: SharedEntry[] };
const SHELL_SHARES = {
  react: '19.3.1',
  'react/jsx-runtime': '19.3.1',
  'react-dom': '19.3.1',
  'react-dom/client': '19.3.1',
  'react-router-dom': '7.18.6',
  '@gatehouse/auth-lib': '1.0.0',
};

let shell: FakeShell;
let shellUrl: string;
let work: string;

beforeAll(async () => {
  shell = await startFakeShell(SHELL_SHARES, [
    { name: 'bundler_fixture', manifest: 'https://billing.example.com/mf-manifest.json', route: '/billing', title: 'Billing' },
  ]);
  shellUrl = shell.url;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-contract-bundlers-'));
});
afterAll(async () => {
  await shell.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A remote folder whose dist/ holds the bundler's manifest, changed as `change` says. */
function remoteBuild(bundler: string, change: (shared: SharedEntry[]) => void = () => undefined): string {
  const dir = fs.mkdtempSync(path.join(work, `${bundler}-`));
  const manifest = manifestOf(bundler);
  change(manifest.shared);
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist', 'mf-manifest.json'), JSON.stringify(manifest));
  return dir;
}

async function run(dir: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runContractCheckCli(['--shell', shellUrl, '--remote', dir], {
    cwd: work,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe.each(['vite', 'rsbuild'])('a %s build', (bundler) => {
  it("fits a shell on its versions: every singleton it shares is read, and the registry's entry is found", async () => {
    const result = await run(remoteBuild(bundler));
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    for (const name of ['react', 'react-dom', 'react-router-dom', '@gatehouse/auth-lib'])
      expect(result.out).toMatch(new RegExp(`✓ ${name} `));
    expect(result.out).toContain('✓ The remote fits the shell');
    expect(result.out).toContain('lists "bundler_fixture" at /billing');
  });

  it('is refused when built against React 18, naming the package and what to do', async () => {
    const dir = remoteBuild(bundler, (shared) => {
      for (const entry of shared)
        if (/^react(-dom)?(\/|$)/.test(entry.name)) Object.assign(entry, { version: '18.3.1', requiredVersion: '^18.3.1' });
    });
    const result = await run(dir);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/✗ react +remote wants \^18\.3\.1 \(installed 18\.3\.1\), shell provides 19\.3\.1/);
    expect(result.err).toContain('set "react": "19.3.1" in the remote\'s package.json');
  });

  it('is refused when auth-lib is not shared as a singleton, naming the presets that share it', async () => {
    const dir = remoteBuild(bundler, (shared) => {
      shared.find((entry) => entry.name === '@gatehouse/auth-lib')!.singleton = false;
    });
    const result = await run(dir);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/✗ @gatehouse\/auth-lib .*\n.*does not, so the page would run two copies/);
    expect(result.err).toContain('defineViteApp or defineRsbuildApp');
  });
});
