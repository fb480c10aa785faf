import type { Compiler } from 'webpack';
import { writeRelease } from './sign';

/**
 * Writes the signed release statement (`mf-release.json`, decisions/0117) once a production build of a remote is on
 * disk: every file is final then (minified, hashed, the manifest written). The key comes from the environment
 * (`GATEHOUSE_RELEASE_KEY` or `GATEHOUSE_RELEASE_KEY_FILE`); without one the statement is unsigned, said once.
 */
export class ReleaseStatementPlugin {
  constructor(private readonly name: string) {}

  apply(compiler: Compiler): void {
    compiler.hooks.afterEmit.tapPromise('GatehouseReleaseStatement', async (compilation) => {
      if (compilation.getStats().hasErrors()) return;
      try {
        await writeRelease(compiler.outputPath, this.name);
      } catch (error) {
        compilation.errors.push(new compiler.webpack.WebpackError((error as Error).message));
      }
    });
  }
}
