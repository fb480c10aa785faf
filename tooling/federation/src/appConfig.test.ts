import fs from 'node:fs';
import path from 'node:path';
import webpack, { type Configuration } from 'webpack';
import { defineApp, DEV_SECURITY_HEADERS, htmlPage, MANIFEST, REMOTE_ENTRY, ROUTER_SUBSET } from './appConfig';
import { RouterSubsetPlugin } from './routerSubset';
import { StandaloneRuntimeCorePlugin } from './standaloneRuntimeCore';
import { ReleaseStatementPlugin } from './release/plugins';

const dir = path.join(__dirname, '..', '..', '..', 'remotes', 'profile');
const app = defineApp({ name: 'profile', dir, port: 3001, exposes: { './App': './src/App.tsx' } });

/** The options the Module Federation plugin was given. */
function federationOptions(config: Configuration): Record<string, unknown> {
  const plugin = config.plugins?.find((p) => p?.constructor?.name === 'ModuleFederationPlugin') as
    { _options?: Record<string, unknown> } | undefined;
  if (!plugin?._options) throw new Error('no ModuleFederationPlugin in the config');
  return plugin._options;
}

describe('defineApp', () => {
  it('names hashed output files in production, so browsers can cache them forever', () => {
    const config = app({}, { mode: 'production' });
    expect(config.mode).toBe('production');
    expect(config.output?.filename).toContain('[contenthash');
    expect(config.output?.chunkFilename).toContain('[contenthash');
  });

  it('writes production source maps outside the served folder, with no link to them in the code', () => {
    const config = app({}, { mode: 'production' });
    expect(config.devtool).toBe('hidden-source-map');
    const mapFile = path.resolve(config.output?.path ?? '', String(config.output?.sourceMapFilename));
    expect(path.relative(config.output?.path ?? '', mapFile).startsWith('..')).toBe(true);
  });

  it('keeps plain names in development', () => {
    const config = app({}, { mode: 'development' });
    expect(config.output?.filename).toBe('[name].js');
  });

  it('resolves the public path at run time, so no port or host is baked into a build', () => {
    expect(app({}, { mode: 'production' }).output?.publicPath).toBe('auto');
  });

  it('publishes a manifest and a remote entry with stable names', () => {
    const options = federationOptions(app({}, { mode: 'production' }));
    expect(options.manifest).toEqual({ fileName: MANIFEST });
    expect(options.filename).toBe(REMOTE_ENTRY);
    expect(options.name).toBe('profile');
    expect(options.exposes).toEqual({ './App': './src/App.tsx' });
  });

  it('never fetches remote entries at start-up to negotiate versions', () => {
    expect(federationOptions(app({}, { mode: 'development' })).shareStrategy).toBe('loaded-first');
  });

  it('shares the singletons, auth-lib strictly', () => {
    const shared = federationOptions(app({}, { mode: 'production' })).shared as Record<
      string,
      { singleton: boolean; strictVersion: boolean }
    >;
    expect(shared.react?.singleton).toBe(true);
    expect(shared['@gatehouse/auth-lib']).toMatchObject({ singleton: true, strictVersion: true });
  });

  it('transpiles TypeScript without type checking (tsc does that)', () => {
    const rule = app({}, { mode: 'production' }).module?.rules?.[0] as { loader: string; options: { transpileOnly: boolean } };
    expect(rule.loader).toContain('ts-loader');
    expect(rule.options.transpileOnly).toBe(true);
  });

  it('minifies every file of the shell with swc; in a remote the files that carry the federation runtime with swc, the rest with esbuild', () => {
    type Minimizer = { options: { include?: unknown; exclude?: unknown; minimizer: { implementation: { name: string } } } };
    const minimizers = (config: Configuration) => (config.optimization?.minimizer ?? []) as unknown as Minimizer[];
    const matches = (minimizer: Minimizer | undefined, file: string) =>
      webpack.ModuleFilenameHelpers.matchObject(minimizer?.options as never, file);
    const shell = defineApp({ name: 'gatehouse_shell', dir, port: 3000, exposes: { './auth': './src/auth/index.ts' } });
    for (const [config, everyFileBySwc] of [
      [app({}, { mode: 'production' }), false],
      [shell({}, { mode: 'production' }), true],
    ] as const) {
      const [swc, rest] = minimizers(config);
      expect(swc?.options.minimizer.implementation.name).toBe('swcMinify');
      expect(rest?.options.minimizer.implementation.name).toBe('esbuildMinify');
      for (const file of ['remoteEntry.js', 'main.0123abcd.js']) {
        expect(matches(swc, file)).toBe(true);
        expect(matches(rest, file)).toBe(false);
      }
      for (const file of ['router.0123abcd.js', '873.5ba1a5d1.js', 'token-verifier.0123abcd.js']) {
        expect(matches(swc, file)).toBe(everyFileBySwc);
        expect(matches(rest, file)).toBe(!everyFileBySwc);
      }
    }
  });

  it('puts the router subset and react-router in one chunk named router', () => {
    const splitChunks = app({}, { mode: 'production' }).optimization?.splitChunks;
    const group = (splitChunks && splitChunks.cacheGroups?.['router']) as {
      name: string;
      test: (module: { resource?: string }) => boolean;
    };
    expect(group.name).toBe('router');
    expect(group.test({ resource: ROUTER_SUBSET })).toBe(true);
    expect(group.test({ resource: path.join('/app', 'node_modules', 'react-router', 'dist', 'development', 'chunk-X.mjs') })).toBe(true);
    expect(group.test({ resource: path.join('/app', 'node_modules', 'react-router-dom', 'dist', 'index.mjs') })).toBe(false);
    expect(group.test({})).toBe(false);
  });

  it('resolves exactly react-router-dom to the shared router subset, and its subpaths to the package', () => {
    const { resolve } = app({}, { mode: 'production' });
    expect(resolve?.alias).toEqual({ 'react-router-dom$': ROUTER_SUBSET });
  });

  it('fails the build on an import of a name that a module does not export', () => {
    const config = app({}, { mode: 'production' });
    expect(config.module?.parser?.javascript?.exportsPresence).toBe('error');
    expect(config.plugins?.some((plugin) => plugin instanceof RouterSubsetPlugin)).toBe(true);
  });

  it('trims the federation runtime: browsers only, and no remote loading or manifests in a remote', () => {
    expect(federationOptions(app({}, { mode: 'production' })).experiments).toMatchObject({
      optimization: { target: 'web', disableRemote: true, disableSnapshot: true },
    });
    const shell = defineApp({ name: 'gatehouse_shell', dir, port: 3000, exposes: { './auth': './src/auth/index.ts' } });
    expect(federationOptions(shell({}, { mode: 'production' })).experiments).toEqual({ optimization: { target: 'web' } });
  });

  it("gives the page one federation runtime: the shell provides it, a remote's container reads it, a remote's own page brings its own", () => {
    const remote = app({}, { mode: 'production' });
    expect(federationOptions(remote).experiments).toMatchObject({ externalRuntime: true });
    expect(federationOptions(remote).runtimePlugins).toBeUndefined();
    expect(remote.plugins?.some((plugin) => plugin instanceof StandaloneRuntimeCorePlugin)).toBe(true);
    const shell = defineApp({ name: 'gatehouse_shell', dir, port: 3000, exposes: { './auth': './src/auth/index.ts' } })(
      {},
      { mode: 'production' },
    );
    // the ES module build of the plugin, which imports the same runtime-core as the bundler runtime
    expect(federationOptions(shell).runtimePlugins).toEqual([
      expect.stringMatching(/inject-external-runtime-core-plugin[\\/]dist[\\/]index\.js$/),
    ]);
    expect(shell.plugins?.some((plugin) => plugin instanceof StandaloneRuntimeCorePlugin)).toBe(false);
  });

  it("writes the signed release statement in a remote's production build only: not in development, not the shell's", () => {
    const has = (config: Configuration) => config.plugins?.some((plugin) => plugin instanceof ReleaseStatementPlugin);
    expect(has(app({}, { mode: 'production' }))).toBe(true);
    expect(has(app({}, { mode: 'development' }))).toBe(false);
    const shell = defineApp({ name: 'gatehouse_shell', dir, port: 3000, exposes: { './auth': './src/auth/index.ts' } });
    expect(has(shell({}, { mode: 'production' }))).toBe(false);
  });

  it('serves the dev server on the app port with CORS for hosts and history fallback for routes', () => {
    const { devServer } = app({}, { mode: 'development' });
    expect(devServer.port).toBe(3001);
    expect(devServer.historyApiFallback).toBe(true);
    const headers = devServer.headers as (request: { headers: { origin?: string } }) => Record<string, string>;
    // same-site: the shell's <script> loads (no Origin header, another port) pass; other sites' do not
    const base = { ...DEV_SECURITY_HEADERS, Vary: 'Origin', 'Cross-Origin-Resource-Policy': 'same-site' };
    expect(headers({ headers: { origin: 'http://localhost:3000' } })).toEqual({
      ...base,
      'Access-Control-Allow-Origin': 'http://localhost:3000',
    });
    expect(headers({ headers: { origin: 'http://evil.example' } })).toEqual(base);
    expect(headers({ headers: {} })).toEqual(base);
  });
  it('grants CORS to the origins an app names (a deployed shell that loads it through a per-tab override)', () => {
    const headers = defineApp({ name: 'profile', dir, port: 3001, shellOrigins: ['https://app.example.com', 'http://127.0.0.1:*'] })(
      {},
      { mode: 'development' },
    ).devServer.headers as (request: { headers: { origin?: string } }) => Record<string, string>;
    expect(headers({ headers: { origin: 'https://app.example.com' } })['Access-Control-Allow-Origin']).toBe('https://app.example.com');
    expect(headers({ headers: { origin: 'http://127.0.0.1:4100' } })['Access-Control-Allow-Origin']).toBe('http://127.0.0.1:4100');
    expect(headers({ headers: { origin: 'http://127.0.0.1:41x' } })['Access-Control-Allow-Origin']).toBeUndefined();
    expect(headers({ headers: { origin: 'http://localhost:3000' } })['Access-Control-Allow-Origin']).toBeUndefined();
  });
  it('resolves Gatehouse packages to their source inside the repository (the source export condition)', () => {
    expect(app({}, { mode: 'production' }).resolve?.conditionNames).toEqual(['@gatehouse/source', '...']);
  });
});

describe('htmlPage', () => {
  it('has no inline script, so a strict CSP allows it', () => {
    const html = htmlPage('Profile <dev>');
    expect(html).not.toMatch(/<script/);
    expect(html).toContain('<title>Profile &#60;dev&#62;</title>');
    expect(html).toContain('<div id="root"></div>');
  });

  it("links the one stylesheet and an icon of the app's origin (no /favicon.ico request, no 404)", () => {
    const html = htmlPage('Profile');
    expect(html).toContain('<link rel="stylesheet" href="/gatehouse.css" />');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    expect(fs.existsSync(path.join(__dirname, '..', 'assets', 'favicon.svg'))).toBe(true);
  });
});
