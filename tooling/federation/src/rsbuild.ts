import path from 'node:path';
import type { RsbuildConfig, RsbuildPlugin } from '@rsbuild/core';
import { DEV_FLOOR_CSP, securityHeaders } from '@gatehouse/config';
import { ASSETS_DIR, AUTH_LIB_PUBLIC_DIR, remoteFederationOptions, STYLESHEET, type BundlerAppDefinition } from './appFiles';
import { SHELL_DEV_ORIGIN } from './devServerCors';
import { routerSubsetProblems } from './routerSubsetCore';
import { bundleRuntimeCore } from './runtimeCoreBundle';
import { writeRelease } from './release/sign';
import { RUNS_FROM_SOURCE, SOURCE_CONDITION } from './workspaceSource';

/** What a remote's `rsbuild.config.ts` says about itself. */
export type RsbuildAppDefinition = BundlerAppDefinition;

/**
 * The whole Rsbuild configuration of a Gatehouse remote built with `@module-federation/rsbuild-plugin`: the manifest
 * and `remoteEntry.js` hosts load, the singletons the shell shares (auth-lib strictly), the shell's federation runtime
 * on its pages instead of a copy (decisions/0019), the router-subset guard, and the standalone page (`src/index.ts`)
 * with its own runtime.
 *
 * @example
 * // rsbuild.config.ts
 * export default defineRsbuildApp({ name: 'billing', dir: import.meta.dirname, port: 3004, exposes: { './App': './src/App.tsx' } });
 */
export function defineRsbuildApp(app: RsbuildAppDefinition): () => Promise<RsbuildConfig> {
  return async () => {
    // ES modules only: imported when Rsbuild asks for the config (this preset is CommonJS when published)
    const [{ pluginModuleFederation }, { pluginReact }] = await Promise.all([
      import('@module-federation/rsbuild-plugin'),
      import('@rsbuild/plugin-react'),
    ]);
    const origins = app.shellOrigins ?? [SHELL_DEV_ORIGIN];
    return {
      root: app.dir,
      source: { entry: { index: './src/index.ts' } },
      // inside the Gatehouse repository its packages resolve to their source (decisions/0017)
      ...(RUNS_FROM_SOURCE ? { resolve: { conditionNames: [SOURCE_CONDITION, '...'] } } : {}),
      html: {
        title: app.title ?? app.name,
        mountId: 'root',
        tags: [
          { tag: 'link', attrs: { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }, head: true, publicPath: false },
          { tag: 'link', attrs: { rel: 'stylesheet', href: `/${STYLESHEET}` }, head: true, publicPath: false },
        ],
      },
      output: {
        distPath: { root: path.join(app.dir, 'dist') },
        // where the code is served is known only at run time (dev ports, nginx ports, a CDN)
        assetPrefix: 'auto',
        cleanDistPath: true,
        // no maps: Rsbuild writes them beside the files it serves (a webpack remote's go beside dist/, never into it)
        sourceMap: false,
        copy: [{ from: ASSETS_DIR }, { from: AUTH_LIB_PUBLIC_DIR }],
      },
      dev: { assetPrefix: 'auto' },
      server: {
        port: app.port,
        strictPort: true,
        host: 'localhost',
        cors: { origin: [...origins] },
        headers: securityHeaders(DEV_FLOOR_CSP),
        publicDir: { name: path.join(app.dir, 'public') },
        historyApiFallback: true,
      },
      plugins: [
        pluginReact(),
        pluginModuleFederation({
          ...remoteFederationOptions(app),
          dev: false,
          // trimmed as a webpack remote's runtime (decisions/0006), and the shell's runtime-core on its pages instead
          // of a copy in every remote (decisions/0019)
          experiments: { externalRuntime: true, optimization: { target: 'web', disableRemote: true, disableSnapshot: true } },
        }),
        routerSubsetRsbuildPlugin(),
        standaloneRuntimeCore(app.dir),
        releaseStatementRsbuildPlugin(app.name),
      ],
    } satisfies RsbuildConfig;
  };
}

/**
 * The router-subset guard for Rsbuild (a transform before Rspack's own loaders): fails the build when a module of the
 * app imports from `react-router-dom` a name the platform's router subset does not export, naming the file, the line
 * and what the subset offers. Shares routerSubsetCore.ts with the webpack and Vite guards.
 */
export function routerSubsetRsbuildPlugin(): RsbuildPlugin {
  return {
    name: 'gatehouse:router-subset',
    setup(api) {
      api.transform({ test: /\.[cm]?[jt]sx?$/, order: 'pre' }, ({ code, resourcePath }) => {
        if (/[\\/]node_modules[\\/]/.test(resourcePath)) return code;
        const problems = routerSubsetProblems(resourcePath, code);
        if (problems.length === 0) return code;
        throw new Error(problems.map((problem) => `${resourcePath}:${problem.line}:${problem.column}: ${problem.message}`).join('\n'));
      });
    },
  };
}

/**
 * The signed release statement (`mf-release.json`, decisions/0117), written once a build is on disk (`rsbuild build`
 * only): the key from `GATEHOUSE_RELEASE_KEY` or `GATEHOUSE_RELEASE_KEY_FILE`, unsigned (said once) without one.
 */
function releaseStatementRsbuildPlugin(name: string): RsbuildPlugin {
  return {
    name: 'gatehouse:release-statement',
    setup(api) {
      api.onAfterBuild(async ({ stats }) => {
        if (stats?.hasErrors()) return;
        await writeRelease(api.context.distPath, name);
      });
    },
  };
}

/**
 * The remote's own page: the federation runtime as a `defer` script before its entry, which no host loads
 * (decisions/0019), and its scripts from the root.
 */
function standaloneRuntimeCore(appDir: string): RsbuildPlugin {
  return {
    name: 'gatehouse:standalone-runtime-core',
    setup(api) {
      let runtime: Promise<{ name: string; code: string }> | undefined;
      const runtimeCore = () => (runtime ??= bundleRuntimeCore(appDir, process.env['NODE_ENV'] === 'production'));
      api.processAssets({ stage: 'additional' }, async ({ compilation, sources }) => {
        const { name, code } = await runtimeCore();
        compilation.emitAsset(name, new sources.RawSource(code));
      });
      api.modifyHTMLTags(async ({ headTags, bodyTags }) => {
        const { name } = await runtimeCore();
        // `assetPrefix: 'auto'` (for hosts) writes the page's own scripts relative: a deep link (/billing/x) served
        // the same index.html needs them from the root
        const rooted = (tags: typeof headTags) =>
          tags.map((tag) => {
            const src = tag.attrs?.['src'];
            return typeof src === 'string' && !/^(\/|[a-z]+:)/.test(src) ? { ...tag, attrs: { ...tag.attrs, src: `/${src}` } } : tag;
          });
        return { headTags: [{ tag: 'script', attrs: { defer: true, src: `/${name}` } }, ...rooted(headTags)], bodyTags: rooted(bodyTags) };
      });
    },
  };
}
