import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generateReleaseKey } from './release/sign';
import type { VerifiedRelease } from './release/files';
import { integrityOf, verifyRelease } from './release/verify';

// Real Vite and Rsbuild builds of a fixture remote with the Gatehouse presets (defineViteApp, defineRsbuildApp), run
// as the scaffold's package.json runs them: the router-subset guard fails a build that imports outside the subset,
// and a good build writes the manifest hosts read (the contract check's tests use manifests these builds wrote:
// tooling/contract-check/test/fixtures/manifests).

const FIXTURE = path.join(__dirname, '..', 'test', 'fixtures', 'other-bundlers');
const BIN = path.join(__dirname, '..', '..', '..', 'node_modules', '.bin');
const COMMANDS = {
  vite: {
    command: path.join(BIN, 'vite'),
    args: ['build', '--configLoader', 'native'],
    nodeOptions: '--import=tsx --conditions=@gatehouse/source',
  },
  rsbuild: {
    command: path.join(BIN, 'rsbuild'),
    args: ['build', '--config-loader', 'jiti'],
    nodeOptions: '--conditions=@gatehouse/source',
  },
} as const;
type Bundler = keyof typeof COMMANDS;

function build(bundler: Bundler, expose: string, releaseKey = ''): { status: number | null; output: string; dist: string } {
  const { command, args, nodeOptions } = COMMANDS[bundler];
  // not as a test run: @module-federation/vite leaves one alone (NODE_ENV=test, JEST_WORKER_ID), federation and all
  const { JEST_WORKER_ID: _worker, GATEHOUSE_RELEASE_KEY: _key, GATEHOUSE_RELEASE_KEY_FILE: _file, ...env } = process.env;
  const result = spawnSync(command, args, {
    cwd: FIXTURE,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...env,
      NODE_ENV: 'production',
      NODE_OPTIONS: nodeOptions,
      FIXTURE_EXPOSE: expose,
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      ...(releaseKey ? { GATEHOUSE_RELEASE_KEY: releaseKey } : {}),
    },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`, dist: path.join(FIXTURE, 'dist') };
}

interface Manifest {
  name: string;
  metaData: { remoteEntry: { name: string; type: string } };
  shared: Array<{ name: string; version: string; singleton: boolean; requiredVersion: string }>;
  exposes: Array<{ path: string }>;
}

describe.each(['vite', 'rsbuild'] as const)('the %s preset (a real build)', (bundler) => {
  afterAll(() => fs.rmSync(path.join(FIXTURE, 'dist'), { recursive: true, force: true }));

  it('fails the build of a remote that imports router API outside the subset, naming the import, the file and its line', () => {
    const { status, output } = build(bundler, '../router-remote/src/App.tsx');
    expect(status).not.toBe(0);
    expect(output).toContain("'useFetcher' is not part of the router API that Gatehouse apps share as 'react-router-dom'");
    expect(output).toContain('decisions/0007-shared-router-subset.md');
    expect(output).toMatch(/router-remote\/src\/App\.tsx:3:\d+/); // the import of useFetcher (the webpack guard's fixture)
  });

  it('builds the subset (and a type-only import outside it) into the manifest, singletons and container hosts read, signed', async () => {
    const { privatePem, publicJwk } = await generateReleaseKey();
    const { status, output, dist } = build(bundler, './src/App.tsx', privatePem);
    expect({ status, output }).toEqual({ status: 0, output: expect.any(String) });
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as Manifest;
    expect(manifest.name).toBe('bundler_fixture');
    expect(manifest.metaData.remoteEntry).toMatchObject({ name: 'remoteEntry.js', type: bundler === 'vite' ? 'module' : 'global' });
    expect(manifest.exposes.map((expose) => expose.path)).toEqual(['./App']);
    const shared = Object.fromEntries(manifest.shared.map((entry) => [entry.name, entry]));
    // (Rspack lists the shared requests a build uses: this fixture's page never imports react-dom/client)
    for (const name of ['react', 'react/jsx-runtime', 'react-dom', 'react-router-dom', '@gatehouse/auth-lib']) {
      expect(shared[name]).toMatchObject({ singleton: true, requiredVersion: `^${shared[name]?.version}` });
    }
    expect(manifest.shared.every((entry) => entry.singleton)).toBe(true);
    // the container reads the page's federation runtime (the shell's) instead of carrying one (decisions/0019)
    // (Vite's remoteEntry.js imports it through a chunk of its own)
    const hostCode = fs
      .readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js') && !file.startsWith('federation-runtime-core.'))
      .map((file) => fs.readFileSync(path.join(dist, file), 'utf8'))
      .join('\n');
    expect(hostCode).toMatch(/(globalThis|self)\._FEDERATION_RUNTIME_CORE\b/);
    // the remote's own page loads a runtime of its own first, and the platform's page files are there
    const page = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(page).toMatch(/<script defer src="\/federation-runtime-core\.[0-9a-f]{8}\.js"><\/script>/);
    for (const file of ['gatehouse.css', 'favicon.svg', 'silent-check-sso.html']) expect(fs.existsSync(path.join(dist, file))).toBe(true);
    // the contract check's fixture is what this build writes (its shared packages)
    const fixture = JSON.parse(
      fs.readFileSync(
        path.join(__dirname, '..', '..', 'contract-check', 'test', 'fixtures', 'manifests', `${bundler}.mf-manifest.json`),
        'utf8',
      ),
    ) as Manifest;
    // by name: the order of `shared` carries no meaning, and Rsbuild writes it in the order its parallel module
    // builds finish (react and react-dom swapped places in one CI run)
    const sharedOf = (m: Manifest) =>
      m.shared
        .map(({ name, version, singleton, requiredVersion }) => ({ name, version, singleton, requiredVersion }))
        .sort((a, b) => a.name.localeCompare(b.name));
    expect(sharedOf(fixture)).toEqual(sharedOf(manifest));
    // the signed release statement (decisions/0117) lists the manifest and every script and stylesheet, as built
    const release = JSON.parse(fs.readFileSync(path.join(dist, 'mf-release.json'), 'utf8')) as unknown;
    const verified = (await verifyRelease(release, [publicJwk], { name: 'bundler_fixture' })) as VerifiedRelease;
    expect(verified).toMatchObject({ ok: true, keyId: publicJwk.kid });
    const served = fs
      .readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .map((file) => file.split(path.sep).join('/'))
      .filter((file) => file === 'mf-manifest.json' || /\.(m?js|css)$/.test(file))
      .sort();
    expect(Object.keys(verified.statement.files)).toEqual(served);
    expect(served).toContain('remoteEntry.js');
    for (const file of served) expect(verified.statement.files[file]).toBe(await integrityOf(fs.readFileSync(path.join(dist, file))));
    // a real build, run synchronously: minutes on a loaded machine, far past jest's 5 s for an async test
  }, 300_000);
});
