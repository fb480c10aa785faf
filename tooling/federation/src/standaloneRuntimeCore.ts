import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Compiler } from 'webpack';
import { bundleRuntimeCore } from './runtimeCoreBundle';

export { RUNTIME_CORE_GLOBAL } from './runtimeCoreBundle';

/**
 * A remote is built with `experiments.externalRuntime`: its container (`remoteEntry.js`) reads the
 * federation runtime from `globalThis._FEDERATION_RUNTIME_CORE`, which the shell provides on the page
 * (inject-external-runtime-core-plugin), so hosts download the runtime once instead of once per remote
 * (decisions/0019). Opened on its own port the remote has no shell: this plugin gives its own page a copy.
 * It bundles `@module-federation/runtime-core` (esbuild, the parts a remote turns off left out), emits it
 * as `federation-runtime-core.<hash>.js` and puts a `defer` script for it before the page's entry, so it
 * runs first. Nothing a host loads refers to this file.
 */
export class StandaloneRuntimeCorePlugin {
  private bundle: Promise<{ name: string; code: string }> | null = null;

  constructor(
    private readonly appDir: string,
    private readonly minify: boolean,
  ) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap('GatehouseStandaloneRuntimeCore', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'GatehouseStandaloneRuntimeCore', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          const { name, code } = await this.build();
          compilation.emitAsset(name, new webpack.sources.RawSource(code), { immutable: true, minimized: true });
        },
      );
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTags.tapPromise('GatehouseStandaloneRuntimeCore', async (data) => {
        const { name } = await this.build();
        const src = `${data.publicPath}${name}`;
        data.assetTags.scripts.unshift(HtmlWebpackPlugin.createHtmlTagObject('script', { defer: true, src }));
        return data;
      });
    });
  }

  /** Built once per process: the same runtime for every rebuild of a dev server. */
  private build(): Promise<{ name: string; code: string }> {
    this.bundle ??= bundleRuntimeCore(this.appDir, this.minify);
    return this.bundle;
  }
}
