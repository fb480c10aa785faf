import fs from 'node:fs';
import path from 'node:path';
import type { Compiler } from 'webpack';

/**
 * Emits every file of an app's `public/` folder (config.json, silent-check-sso.html, …) as it is,
 * so a production build is complete without a copy step. The dev server serves the same folder.
 */
export class PublicFilesPlugin {
  constructor(private readonly dir: string) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap('GatehousePublicFiles', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'GatehousePublicFiles', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const file of listFiles(this.dir)) {
            const name = path.relative(this.dir, file).split(path.sep).join('/');
            if (name === 'index.html') continue; // the HTML template, rendered by html-webpack-plugin
            compilation.fileDependencies.add(file);
            compilation.emitAsset(name, new webpack.sources.RawSource(fs.readFileSync(file)));
          }
        },
      );
    });
  }
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}
