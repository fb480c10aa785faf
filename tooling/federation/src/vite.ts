import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, UserConfig } from 'vite';
import { DEV_FLOOR_CSP, securityHeaders } from '@gatehouse/config';
import { ASSETS_DIR, AUTH_LIB_PUBLIC_DIR, remoteFederationOptions, STYLESHEET, type BundlerAppDefinition } from './appFiles';
import { SHELL_DEV_ORIGIN } from './devServerCors';
import { routerSubsetProblems } from './routerSubsetCore';
import { bundleRuntimeCore } from './runtimeCoreBundle';
import { writeRelease } from './release/sign';
import { RUNS_FROM_SOURCE, SOURCE_CONDITION } from './workspaceSource';

/** What a remote's `vite.config.ts` says about itself. */
export type ViteAppDefinition = BundlerAppDefinition;

/**
 * The whole Vite configuration of a Gatehouse remote built with `@module-federation/vite`: the manifest and
 * `remoteEntry.js` (an ES module) hosts load, the singletons the shell shares (react, react-dom, the router, auth-lib
 * strictly), the shell's federation runtime on its pages instead of a copy (decisions/0019), the router-subset guard,
 * and the standalone page (`index.html` → `src/index.ts`) with its own runtime. Run it with Vite's native config
 * loader (`vite build --configLoader native`), so `@gatehouse/federation` loads as Node loads it.
 *
 * @example
 * // vite.config.ts
 * export default defineViteApp({ name: 'billing', dir: import.meta.dirname, port: 3004, exposes: { './App': './src/App.tsx' } });
 */
export function defineViteApp(app: ViteAppDefinition): () => Promise<UserConfig> {
  return async () => {
    // an ES module only: imported when Vite asks for the config (this preset is CommonJS when published)
    const { federation } = await import('@module-federation/vite');
    const origins = app.shellOrigins ?? [SHELL_DEV_ORIGIN];
    const headers = securityHeaders(DEV_FLOOR_CSP);
    return {
      root: app.dir,
      // the remote's own page is served at its origin's root; what hosts load is found through the manifest ('auto')
      base: '/',
      publicDir: path.join(app.dir, 'public'),
      // inside the Gatehouse repository its packages resolve to their source (decisions/0017)
      ...(RUNS_FROM_SOURCE ? { resolve: { conditions: [SOURCE_CONDITION, 'module', 'browser', 'development|production'] } } : {}),
      plugins: [
        federation({
          ...remoteFederationOptions(app),
          publicPath: 'auto',
          // trimmed as a webpack remote's runtime (decisions/0006): a remote loads no other remote
          target: 'web',
          disableRemote: true,
          disableSnapshot: true,
          // the shell's runtime-core on its pages, not a copy in every remote (decisions/0019)
          experiments: { externalRuntime: true },
        }),
        routerSubsetVitePlugin(),
        gatehousePageFiles(app.dir),
        releaseStatementVitePlugin(app.name),
      ],
      server: { port: app.port, strictPort: true, host: 'localhost', cors: { origin: [...origins] }, headers },
      preview: { port: app.port, strictPort: true, host: 'localhost', cors: { origin: [...origins] }, headers },
      build: {
        outDir: path.join(app.dir, 'dist'),
        emptyOutDir: true,
        target: 'es2022',
        // no maps: Vite writes them beside the files it serves (a webpack remote's go beside dist/, never into it)
        sourcemap: false,
        rolldownOptions: {
          // react-router's "use client" means nothing in a browser bundle; per-plugin timings are Vite's own profiling
          checks: { pluginTimings: false },
          // hex hashes (name-<hex>.js): what nginx's cache map serves as immutable (deploy/nginx), as webpack's
          output: { hashCharacters: 'hex' },
          onLog(level, log, handler) {
            if (log.code === 'MODULE_LEVEL_DIRECTIVE' && /[\\/]node_modules[\\/]/.test(log.id ?? '')) return;
            handler(level, log);
          },
        },
      },
    } satisfies UserConfig;
  };
}

/**
 * The router-subset guard for Vite (a Rollup plugin): fails the build (and shows the dev server's error overlay) when
 * a module of the app imports from `react-router-dom` a name the platform's router subset does not export, naming the
 * file, the line and what the subset offers. Shares routerSubsetCore.ts with the webpack and Rsbuild guards.
 */
export function routerSubsetVitePlugin(): Plugin {
  return {
    name: 'gatehouse:router-subset',
    // before any transform: the source as written, with its lines and its type-only imports
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (id.startsWith('\0') || /[\\/]node_modules[\\/]/.test(file) || !/\.[cm]?[jt]sx?$/.test(file)) return null;
      const [first, ...more] = routerSubsetProblems(file, code);
      if (first === undefined) return null;
      for (const problem of more)
        this.warn({ message: problem.message, id: file, loc: { line: problem.line, column: problem.column - 1 } });
      return this.error({ message: first.message, id: file, loc: { line: first.line, column: first.column - 1 } });
    },
  };
}

/**
 * The signed release statement (`mf-release.json`, decisions/0117), written once the build is on disk: the key from
 * `GATEHOUSE_RELEASE_KEY` or `GATEHOUSE_RELEASE_KEY_FILE`, unsigned (said once) without one.
 */
function releaseStatementVitePlugin(name: string): Plugin {
  let outDir = '';
  let written = false;
  return {
    name: 'gatehouse:release-statement',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // only a build that wrote its files (a failed one calls closeBundle too)
    writeBundle() {
      written = true;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (written) await writeRelease(outDir, name);
      },
    },
  };
}

/**
 * The files every Gatehouse page serves beside the app's own `public/` (Vite has one public folder): the platform's
 * stylesheet and icon, auth-lib's silent check-sso page, and the federation runtime for the remote's own page — a
 * `defer` script before its entry, which no host loads (decisions/0019).
 */
function gatehousePageFiles(appDir: string): Plugin {
  let production = true;
  let runtime: Promise<{ name: string; code: string }> | undefined;
  const runtimeCore = () => (runtime ??= bundleRuntimeCore(appDir, production));
  const files = new Map<string, string>(
    [ASSETS_DIR, AUTH_LIB_PUBLIC_DIR].flatMap((dir) =>
      fs.readdirSync(dir).map((name): [string, string] => [`/${name}`, path.join(dir, name)]),
    ),
  );
  return {
    name: 'gatehouse:page-files',
    configResolved(config) {
      production = config.command === 'build';
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const url = (request.url ?? '').split('?')[0] ?? '';
        const file = files.get(url);
        if (file) {
          const type = file.endsWith('.css')
            ? 'text/css'
            : file.endsWith('.svg')
              ? 'image/svg+xml'
              : file.endsWith('.js')
                ? 'text/javascript'
                : 'text/html';
          response.setHeader('Content-Type', type);
          response.end(fs.readFileSync(file));
          return;
        }
        if (!url.startsWith('/federation-runtime-core.')) return next();
        void runtimeCore().then(({ name, code }) => {
          if (url !== `/${name}`) return next();
          response.setHeader('Content-Type', 'text/javascript');
          response.end(code);
        }, next);
      });
    },
    async transformIndexHtml() {
      const { name } = await runtimeCore();
      return [
        { tag: 'link', attrs: { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }, injectTo: 'head' },
        { tag: 'link', attrs: { rel: 'stylesheet', href: `/${STYLESHEET}` }, injectTo: 'head' },
        { tag: 'script', attrs: { defer: true, src: `/${name}` }, injectTo: 'head-prepend' },
      ];
    },
    async generateBundle() {
      for (const [url, file] of files) this.emitFile({ type: 'asset', fileName: url.slice(1), source: fs.readFileSync(file) });
      const { name, code } = await runtimeCore();
      this.emitFile({ type: 'asset', fileName: name, source: code });
    },
  };
}
