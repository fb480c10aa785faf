import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import TerserPlugin from 'terser-webpack-plugin';
import type { Configuration, Module } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { DEV_FLOOR_CSP, securityHeaders } from '@gatehouse/config';
import { ASSETS_DIR, AUTH_LIB_PUBLIC_DIR, htmlPage, MANIFEST, REMOTE_ENTRY, SHELL_NAME, STYLESHEET } from './appFiles';
import { PublicFilesPlugin } from './publicFiles';
import { RouterSubsetPlugin } from './routerSubset';
import { ROUTER_REQUEST, ROUTER_SUBSET } from './routerSubsetCore';
import { installedVersion, sharedDependencies } from './shared';
import { RUNS_FROM_SOURCE, SOURCE_CONDITION } from './workspaceSource';
import { devServerCors, SHELL_DEV_ORIGIN } from './devServerCors';
import { StandaloneRuntimeCorePlugin } from './standaloneRuntimeCore';
import { ReleaseStatementPlugin } from './release/plugins';

/**
 * What every Gatehouse dev server sends besides CORS: production's security headers (@gatehouse/config's
 * `securityHeaders`, the function nginx's are rendered with) around the floor CSP for any app's own page — no
 * framing by other sites, no `<base>` to another origin, no plugins. The shell passes its full production CSP
 * (`pageHeaders`), derived from its config.json as nginx's is.
 */
export const DEV_SECURITY_HEADERS: Readonly<Record<string, string>> = securityHeaders(DEV_FLOOR_CSP);

/** What an app's webpack config says about itself; everything else is common to every Gatehouse app. */
export interface AppDefinition {
  /** the federation name (`gatehouse_shell`, `profile`, …): the container's global and the manifest's name */
  readonly name: string;
  /** the app's folder (`__dirname` of its webpack config) */
  readonly dir: string;
  /** the dev server's port; production builds never see it (remotes are found through config.json) */
  readonly port: number;
  /** federated modules, e.g. `{ './App': './src/App.tsx' }` */
  readonly exposes?: Readonly<Record<string, string>>;
  /** the page title of the app's own HTML page */
  readonly title?: string;
  /**
   * Origins whose pages may load this app's files from its dev server (CORS): the shell's dev origin
   * (default `http://localhost:3000`) and e.g. a deployed shell that loads it through a per-tab override.
   */
  readonly shellOrigins?: readonly string[];
  /**
   * Headers every response of the dev server carries, over DEV_SECURITY_HEADERS (nosniff, Referrer-Policy,
   * Permissions-Policy and a CSP that blocks framing and `<base>` elsewhere): the shell passes production's
   * headers, its full Content-Security-Policy included, so a dev-only hole cannot hide behind production's CSP.
   */
  readonly pageHeaders?: Readonly<Record<string, string>>;
}

/** The arguments webpack-cli passes to a config function (`--mode`). */
export interface WebpackArgv {
  readonly mode?: 'development' | 'production' | 'none';
}

export { htmlPage, MANIFEST, REMOTE_ENTRY, SHELL_NAME, STYLESHEET };

/** The container entry and the page entry: the files that carry the federation runtime. */
const FEDERATION_RUNTIME_FILES = /^(remoteEntry\.js|main\.[0-9a-f]+\.js)$/;
/** The shared router chunk (the subset and the part of react-router it uses): one request, a stable name. */
const ROUTER_CHUNK = 'router';
/** Every script the shell emits (decisions/0101). */
const ANY_SCRIPT = /\.js$/;
export { ROUTER_SUBSET };
/** The runtime plugin that puts the shell's runtime-core on the page for remotes built with `externalRuntime`. */
// Its ES module build: the CommonJS one would require the CommonJS runtime-core, a second copy beside the ES
// module one the bundler runtime imports.
const INJECT_RUNTIME_CORE_PLUGIN = require.resolve('@module-federation/inject-external-runtime-core-plugin').replace(/\.cjs$/, '.js');

/**
 * The whole webpack configuration of a Gatehouse app from its name and exposes.
 * Entry `src/index.ts` (an async boundary that imports the real bootstrap), static files from `public/`.
 *
 * @example
 * // remotes/profile/webpack.config.ts
 * export default defineApp({ name: 'profile', dir: __dirname, port: 3001, exposes: { './App': './src/App.tsx' } });
 */
export function defineApp(app: AppDefinition) {
  return (_env: unknown, argv: WebpackArgv = {}): Configuration & { devServer: DevServerConfiguration } => {
    const production = argv.mode !== 'development';
    // The federation plugins look for webpack by provoking an error from `compiler.webpack()` when this
    // is unset, which runs webpack's full schema validation (~0.5 s per build) and still finds nothing.
    process.env['FEDERATION_WEBPACK_PATH'] ||= require.resolve('webpack');
    const remote = Object.keys(app.exposes ?? {}).length > 0 && app.name !== SHELL_NAME;
    // The files swc's minifier folds and prunes (see `optimization`; decisions/0020); esbuild minifies the rest.
    // In the shell every file (decisions/0101): its first page is what visitors download before anything else, and
    // swc's compressor leaves it 1.7 KiB gzip smaller than esbuild's at about the same CPU time. In a remote only the
    // runtime files: its router copy only runs when the remote runs on its own, and its app code is not on the
    // shell's first page.
    const foldedFiles = remote ? [FEDERATION_RUNTIME_FILES] : [ANY_SCRIPT];
    const hashed = production ? '[name].[contenthash:8].js' : '[name].js';
    return {
      mode: production ? 'production' : 'development',
      context: app.dir,
      entry: { main: './src/index.ts' },
      // Production maps are written beside dist/, never into it: nothing served links to or contains them.
      devtool: production ? 'hidden-source-map' : 'cheap-module-source-map',
      output: {
        path: path.join(app.dir, 'dist'),
        // Where the code is served is known only at run time (dev ports, nginx ports, a CDN).
        publicPath: 'auto',
        // the chunk global (webpackChunk<name>) is what the shell drops to swap in a new release (decisions/0046)
        uniqueName: app.name,
        filename: hashed,
        chunkFilename: hashed,
        sourceMapFilename: '../dist-sourcemaps/[file].map',
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js'],
        // `react-router-dom` (exactly; not its subpaths) is the platform's router subset, shared under
        // that name, so remotes keep their imports and the shared chunk only holds what the subset lists.
        alias: { [`${ROUTER_REQUEST}$`]: ROUTER_SUBSET },
        // Inside the repository, Gatehouse packages resolve to their source (decisions/0017).
        ...(RUNS_FROM_SOURCE ? { conditionNames: [SOURCE_CONDITION, '...'] } : {}),
      },
      module: {
        // An import of a name a module does not export fails the build instead of being `undefined` at run
        // time: above all, a remote importing router API outside the subset (decisions/0007).
        parser: { javascript: { exportsPresence: 'error' } },
        rules: [
          {
            test: /\.tsx?$/,
            exclude: /node_modules/,
            loader: require.resolve('ts-loader'),
            options: {
              // Type checking is `npm run typecheck` (tsc); the bundler only strips types, which is fast.
              transpileOnly: true,
              configFile: path.join(app.dir, 'tsconfig.json'),
              compilerOptions: { noEmit: false, module: 'esnext', sourceMap: true },
            },
          },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name: app.name,
          filename: REMOTE_ENTRY,
          exposes: { ...(app.exposes ?? {}) },
          shared: { ...sharedDependencies((pkg) => installedVersion(pkg, app.dir)) },
          // Use what is already on the page; never fetch every remote's entry to compare versions at start-up.
          shareStrategy: 'loaded-first',
          manifest: { fileName: MANIFEST },
          dts: false,
          dev: false,
          // The federation runtime, trimmed to what each app does (decisions/0006): browsers only; a remote never
          // loads other remotes nor reads their manifests (the shell does). One runtime per page (decisions/0019):
          // the shell provides its runtime-core on the page (what `provideExternalRuntime` would add, refused for
          // a host that exposes `./auth`) and a remote's container reads it from there instead of carrying a copy.
          experiments: remote
            ? { externalRuntime: true, optimization: { target: 'web', disableRemote: true, disableSnapshot: true } }
            : { optimization: { target: 'web' } },
          ...(remote ? {} : { runtimePlugins: [INJECT_RUNTIME_CORE_PLUGIN] }),
        }),
        // A remote opened on its own port has no shell to provide the runtime: its page loads its own copy.
        ...(remote ? [new StandaloneRuntimeCorePlugin(app.dir, production)] : []),
        new HtmlWebpackPlugin({
          // Only the app's own entry: the container entry (remoteEntry.js) is for hosts, not for this page.
          chunks: ['main'],
          // Absolute, so deep links (/reports/x) served the same index.html find the scripts.
          publicPath: '/',
          scriptLoading: 'defer',
          templateContent: htmlPage(app.title ?? app.name),
        }),
        // webpack's exportsPresence cannot see through a shared module: this names what is outside the subset.
        new RouterSubsetPlugin(ROUTER_SUBSET),
        new PublicFilesPlugin(ASSETS_DIR),
        new PublicFilesPlugin(AUTH_LIB_PUBLIC_DIR),
        new PublicFilesPlugin(path.join(app.dir, 'public')),
        // the release statement hosts verify against the team's pinned keys (decisions/0117)
        ...(remote && production ? [new ReleaseStatementPlugin(app.name)] : []),
      ],
      optimization: production
        ? {
            minimize: true,
            // Worker processes cost more to start than they save here (parallel: false). swc (terser's compressor,
            // rewritten in Rust: the same folding, about half the CPU time of terser here, decisions/0020) only for
            // the two files that carry the federation runtime: only its constant folding drops the parts
            // of the runtime an app turned off (experiments.optimization above, ~11 KiB gzip); esbuild,
            // several times faster, for everything else in a remote (decisions/0006), nothing in the shell (0101).
            // The shell's router needs it most: react-router ships as one 370 KB module, and of what webpack marks unused
            // in it only a folding minifier (terser, swc) drops the unreferenced functions (50 KiB gzip with esbuild, 15 with swc).
            minimizer: [
              new TerserPlugin({
                include: foldedFiles,
                minify: TerserPlugin.swcMinify,
                parallel: false,
                terserOptions: { compress: { passes: 2 } },
              }),
              new TerserPlugin({ exclude: foldedFiles, minify: TerserPlugin.esbuildMinify, parallel: false }),
            ],
            splitChunks: {
              cacheGroups: {
                // The subset and react-router in one chunk with a stable name: one request, and swc above.
                [ROUTER_CHUNK]: {
                  test: (module: Module) => isRouterModule((module as { resource?: string }).resource),
                  name: ROUTER_CHUNK,
                  chunks: 'all',
                  enforce: true,
                },
              },
            },
          }
        : {},
      performance: false,
      devServer: {
        port: app.port,
        host: 'localhost',
        historyApiFallback: true,
        hot: true,
        // The shell (another origin) fetches this app's manifest and chunks; no other origin may read them.
        // Every page also gets production's security headers (frame-ancestors, base-uri, …).
        headers: withPageHeaders({ ...DEV_SECURITY_HEADERS, ...app.pageHeaders }, devServerCors(app.shellOrigins ?? [SHELL_DEV_ORIGIN])),
        static: { directory: path.join(app.dir, 'public'), watch: true },
        // Errors of a remote are shown in its slot; an overlay over the whole page would hide that.
        client: { overlay: { errors: true, warnings: false, runtimeErrors: false } },
      },
    };
  };
}

function withPageHeaders(
  page: Readonly<Record<string, string>>,
  cors: (request: IncomingMessage) => Record<string, string>,
): (request: IncomingMessage) => Record<string, string> {
  return (request) => ({ ...page, ...cors(request) });
}

function isRouterModule(resource: string | undefined): boolean {
  return resource !== undefined && (resource === ROUTER_SUBSET || /[\\/]node_modules[\\/]react-router[\\/]/.test(resource));
}
