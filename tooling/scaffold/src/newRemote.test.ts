import fs from 'node:fs';
import path from 'node:path';
import { runNewRemote } from './cli';
import type { PortProbe } from './plan';
import { makeTestRepo, snapshotFiles } from './testRepo';

const allFree: PortProbe = async () => true;

async function run(argv: string[], root: string, portIsFree = allFree) {
  const out: string[] = [];
  const err: string[] = [];
  const install = jest.fn(async () => 0);
  const code = await runNewRemote([...argv, '--root', root], {
    cwd: root,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    portIsFree,
    install,
  });
  return { code, out: out.join('\n'), err: err.join('\n'), install };
}

const readJson = (root: string, file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('new-remote', () => {
  let root: string;
  beforeEach(() => {
    root = makeTestRepo();
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('creates the remote from the template: a few-line webpack config, ./App, a unit test and a standalone entry', async () => {
    const { code } = await run(['billing', '--skip-install'], root);
    expect(code).toBe(0);
    const dir = path.join(root, 'remotes', 'billing');
    expect(fs.readFileSync(path.join(dir, 'webpack.config.ts'), 'utf8')).toBe(
      "import { defineApp } from '@gatehouse/federation';\n\nexport default defineApp({ name: 'billing', title: 'Billing', dir: __dirname, port: 3004, exposes: { './App': './src/App.tsx' } });\n",
    );
    expect(fs.readFileSync(path.join(dir, 'src', 'App.test.tsx'), 'utf8')).toContain("from '@gatehouse/auth-lib/testing'");
    expect(fs.readFileSync(path.join(dir, 'src', 'bootstrap.tsx'), 'utf8')).toContain("runStandalone({ title: 'Billing', App })");
    const pkg = readJson(root, 'remotes/billing/package.json');
    expect(pkg.name).toBe('@gatehouse/remote-billing');
    expect(pkg.scripts.check).toContain('contract-check');
    expect(pkg.dependencies).toEqual(expect.objectContaining({ react: readJson(root, 'shell/package.json').dependencies.react }));
    for (const file of Object.values(snapshotFiles(dir))) expect(file).not.toMatch(/\{\{/);
  });

  it.each([
    [
      'vite',
      'vite.config.ts',
      "import { defineViteApp } from '@gatehouse/federation/vite';",
      'vite build --configLoader native',
      '@module-federation/vite',
    ],
    [
      'rsbuild',
      'rsbuild.config.ts',
      "import { defineRsbuildApp } from '@gatehouse/federation/rsbuild';",
      'rsbuild build --config-loader jiti',
      '@module-federation/rsbuild-plugin',
    ],
  ])(
    'with --bundler %s: its preset in a one-line config, no webpack config, and the tools at the versions the preset is tested with',
    async (bundler, config, preset, build, plugin) => {
      const { code } = await run(['billing', '--bundler', bundler, '--skip-install'], root);
      expect(code).toBe(0);
      const dir = path.join(root, 'remotes', 'billing');
      expect(fs.readFileSync(path.join(dir, config), 'utf8')).toContain(preset);
      expect(fs.readFileSync(path.join(dir, config), 'utf8')).toContain("name: 'billing'");
      expect(fs.existsSync(path.join(dir, 'webpack.config.ts'))).toBe(false);
      const pkg = readJson(root, 'remotes/billing/package.json');
      expect(pkg.scripts.build).toContain(build);
      expect(pkg.scripts.check).toContain('contract-check');
      expect(pkg.devDependencies[plugin]).toBe(readJson(root, 'tooling/federation/package.json').devDependencies[plugin]);
      expect(readJson(root, 'remotes/billing/tsconfig.json').include).toContain(config);
      // the same app, unit test and standalone entry as a webpack remote
      expect(fs.readFileSync(path.join(dir, 'src', 'bootstrap.tsx'), 'utf8')).toContain("runStandalone({ title: 'Billing', App })");
      for (const file of Object.values(snapshotFiles(dir))) expect(file).not.toMatch(/\{\{/);
    },
  );

  it('refuses --bundler vite with --outside (webpack only there so far), writing nothing', async () => {
    const before = snapshotFiles(root);
    const { code, err } = await run(['billing', '--bundler', 'vite', '--outside', path.join(root, 'out'), '--skip-install'], root);
    expect(code).toBe(1);
    expect(err).toMatch(/--bundler vite with --outside: a remote in its own repository is written for webpack only so far/);
    expect(snapshotFiles(root)).toEqual(before);
  });

  it('registers it in the dev registry and adds its dev address to the demo realm, editing only those lines', async () => {
    const before = fs.readFileSync(path.join(root, 'shell/public/config.json'), 'utf8');
    await run(
      ['billing', '--route', '/money', '--title', 'Money', '--realm-role', 'admin', '--client-role', 'reports:viewer', '--skip-install'],
      root,
    );
    const registry = readJson(root, 'shell/public/config.json');
    expect(registry.remotes.at(-1)).toEqual({
      name: 'billing',
      manifest: 'http://localhost:3004/mf-manifest.json',
      route: '/money',
      title: 'Money',
      realmRoles: ['admin'],
      clientRoles: { reports: ['viewer'] },
      api: { url: 'http://localhost:3010/billing', audience: 'billing-api', scope: 'billing-api' },
    });
    const after = fs.readFileSync(path.join(root, 'shell/public/config.json'), 'utf8');
    expect(after.startsWith(before.slice(0, before.lastIndexOf('}\n  ]')))).toBe(true);
    expect(after).toContain(
      '"clientRoles": { "reports": ["viewer"] },\n      "api": {\n        "url": "http://localhost:3010/billing",\n        "audience": "billing-api",\n        "scope": "billing-api"\n      }\n    }\n  ]\n}',
    );
    const realm = readJson(root, 'deploy/keycloak/gatehouse-realm.json');
    expect(realm.clients[0].redirectUris).toContain('http://localhost:3004/*');
  });

  it("names the remote's own API, and adds its audience scope to the demo realm as the demo remotes' APIs have theirs", async () => {
    const { code } = await run(['billing', '--skip-install'], root);
    expect(code).toBe(0);
    // as the profile remote names profile-api, which the shell asks for at sign-in and the remote's token is for
    expect(readJson(root, 'shell/public/config.json').remotes.at(-1).api).toEqual({
      url: 'http://localhost:3010/billing',
      audience: 'billing-api',
      scope: 'billing-api',
    });
    const realm = readJson(root, 'deploy/keycloak/gatehouse-realm.json');
    const shellClient = realm.clients.find((c: { clientId: string }) => c.clientId === 'gatehouse-shell');
    expect(shellClient.optionalClientScopes).toEqual(expect.arrayContaining(['profile-api', 'billing-api']));
    const scopes = new Map(realm.clientScopes.map((s: { name: string }) => [s.name, s]));
    const audienceMapper = (name: string) =>
      (scopes.get(name) as { protocolMappers: { config: Record<string, string> }[] }).protocolMappers;
    expect(audienceMapper('billing-api')).toEqual([
      expect.objectContaining({
        protocolMapper: 'oidc-audience-mapper',
        config: { ...audienceMapper('profile-api')[0]!.config, 'included.custom.audience': 'billing-api' },
      }),
    ]);
  });

  it.each(['webpack', 'vite', 'rsbuild'])(
    "with --bundler %s: a card that calls the API through TanStack Query with the remote's token, and its unit test",
    async (bundler) => {
      const { code } = await run(['billing', '--bundler', bundler, '--skip-install'], root);
      expect(code).toBe(0);
      const dir = path.join(root, 'remotes', 'billing');
      const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
      // TanStack Query at the version the demo remotes are tested with; a query cache of the remote's own in its root
      const locked = readJson(root, 'package-lock.json').packages['node_modules/@tanstack/react-query'].version;
      expect(readJson(root, 'remotes/billing/package.json').dependencies['@tanstack/react-query']).toBe(locked);
      expect(read('src/App.tsx')).toContain(
        'const [queryClient] = useState(() => new QueryClient());\n  return (\n    <QueryClientProvider client={queryClient}>',
      );
      expect(read('src/App.tsx')).toContain('<ApiCard />');
      // the card: useQuery over the session's authFetch to the API of the remote's view, a refusal not retried
      const card = read('src/ApiCard.tsx');
      // the demo remotes' own card (@gatehouse/remote-kit), copied as it is: the new remote owns it, it does not depend on the kit
      expect(card).toBe(fs.readFileSync(require.resolve('@gatehouse/remote-kit/ApiCard'), 'utf8'));
      expect(card).toContain("import { skipToken, useQuery } from '@tanstack/react-query';");
      expect(card).toContain('const response = await session.authFetch(url);');
      expect(card).toContain("queryFn: api && status === 'authenticated' ? () => callApi(session, api.url) : skipToken,");
      expect(card).toContain('retry: false,');
      // its unit test calls the API the registry names, with a token of that audience alone
      const test = read('src/App.test.tsx');
      expect(test).toContain(
        "const api: ApiBinding = { url: 'http://localhost:3010/billing', audience: 'billing-api', scope: 'billing-api' };",
      );
      expect(test).toContain("authorization: 'Bearer page-token:billing-api'");
    },
  );

  it('picks the first port that no app uses and nothing listens on', async () => {
    const busy = new Set([3004, 3005]);
    await run(['billing', '--skip-install'], root, async (port) => !busy.has(port));
    expect(readJson(root, 'shell/public/config.json').remotes.at(-1).manifest).toBe('http://localhost:3006/mf-manifest.json');
    await run(['ledger', '--skip-install'], root);
    expect(readJson(root, 'shell/public/config.json').remotes.at(-1).manifest).toBe('http://localhost:3004/mf-manifest.json');
    await run(['invoices', '--skip-install'], root);
    expect(readJson(root, 'shell/public/config.json').remotes.at(-1).manifest).toBe('http://localhost:3005/mf-manifest.json');
  });

  it('runs npm install at the end unless told not to, and prints the next steps', async () => {
    const { install, out } = await run(['billing'], root);
    expect(install).toHaveBeenCalledWith(root);
    expect(out).toContain('npm start -w @gatehouse/remote-billing');
    expect(out).toContain('npm run check -w remotes/billing');
  });

  it.each([
    [['Billing'], /not a valid remote name/],
    [['bill-ing'], /has a "-".*use "bill_ing"/],
    [['profile'], /remotes\/profile already exists/],
    [['shell'], /reserved/],
    [['billing', '--route', '/reports'], /route \/reports is taken by the remote "reports"/],
    [['billing', '--route', '/reports/billing'], /overlaps \/reports/],
    [['billing', '--route', 'billing/'], /is not a route/],
    [['billing', '--port', '3002'], /Port 3002 is taken by the remote "admin"/],
    [['billing', '--port', '3000'], /used by the shell or the identity provider/],
    [['billing', '--port', '80'], /not a port/],
    [['billing', '--realm-role', 'owner'], /realm role "owner" is not in the demo realm \(it has: user, admin\)/],
    [['billing', '--client-role', 'reports:editor'], /client "reports" has no role "editor"/],
    [['billing', '--title', "Bob's <b>"], /--title/],
    [['billing', '--bundler', 'parcel'], /--bundler parcel: use one of webpack, vite, rsbuild/],
  ])('refuses %j with a clear message and changes nothing', async (argv, message) => {
    const before = snapshotFiles(root);
    const { code, err, install } = await run([...argv, '--skip-install'], root);
    expect(code).toBe(1);
    expect(err).toMatch(/^Nothing was created or changed:/);
    expect(err).toMatch(message);
    expect(install).not.toHaveBeenCalled();
    expect(snapshotFiles(root)).toEqual(before);
  });

  it('refuses a port that something on this machine listens on', async () => {
    const { code, err } = await run(['billing', '--port', '3010', '--skip-install'], root, async (port) => port !== 3010);
    expect(code).toBe(1);
    expect(err).toMatch(/Port 3010 is in use on this machine/);
  });

  it('lists every problem at once', async () => {
    const { err } = await run(['bill-ing', '--route', '/profile', '--realm-role', 'owner', '--skip-install'], root);
    expect(err.split('\n').filter((line) => line.startsWith('  ✗'))).toHaveLength(3);
  });

  it('explains the usage when the command line itself is wrong', async () => {
    const { code, err } = await run(['billing', '--frobnicate'], root);
    expect(code).toBe(2);
    expect(err).toMatch(/Unknown option "--frobnicate"[\s\S]*Usage: npm run new-remote/);
  });
});
