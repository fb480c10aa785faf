import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

/** The global that `externalRuntime` reads the federation runtime from (Module Federation's name for it). */
export const RUNTIME_CORE_GLOBAL = '_FEDERATION_RUNTIME_CORE';

/**
 * `@module-federation/runtime-core` as one script that sets RUNTIME_CORE_GLOBAL, for the page of a remote opened on
 * its own port (no shell there to provide it; decisions/0019), named `federation-runtime-core.<hash>.js`. Every
 * bundler preset (webpack, Vite, Rsbuild) puts it before its page's entry; no host ever loads it.
 */
export async function bundleRuntimeCore(appDir: string, minify: boolean): Promise<{ name: string; code: string }> {
  const runtimeCore = createRequire(path.join(appDir, 'package.json')).resolve('@module-federation/runtime-core');
  const result = await build({
    stdin: {
      contents: `import * as core from ${JSON.stringify(runtimeCore.replace(/\.cjs$/, '.js'))};\nglobalThis.${RUNTIME_CORE_GLOBAL} = core;\n`,
      resolveDir: appDir,
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify,
    write: false,
    legalComments: 'none',
    // The same trimming as the remote's own bundler runtime (appConfig.ts): a remote page loads no other remote.
    define: {
      FEDERATION_OPTIMIZE_NO_SNAPSHOT_PLUGIN: 'true',
      FEDERATION_OPTIMIZE_NO_REMOTE: 'true',
      ENV_TARGET: '"web"',
    },
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error('esbuild produced no bundle of @module-federation/runtime-core');
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 8);
  return { name: `federation-runtime-core.${hash}.js`, code };
}
