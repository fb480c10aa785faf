import type { Compilation, Compiler, Dependency, Module } from 'webpack';
import { outsideSubsetMessage, ROUTER_REQUEST } from './routerSubsetCore';

export { ROUTER_REQUEST } from './routerSubsetCore';

/** What the check reads of an import dependency (webpack's harmony import / re-export specifiers). */
interface SpecifierDependency extends Dependency {
  readonly request: string;
  getIds(moduleGraph: Compilation['moduleGraph']): string[];
}

/**
 * Fails the build of an app that imports from `react-router-dom` a name the platform's router subset
 * (`src/router.ts`, decisions/0007) does not export. webpack's own `exportsPresence` check cannot see
 * this: the import is linked to the shared-module stand-in, whose exports are unknown until run time,
 * so without this check the name would only be `undefined` in the browser.
 */
export class RouterSubsetPlugin {
  constructor(private readonly subsetFile: string) {}

  apply(compiler: Compiler): void {
    const { WebpackError } = compiler.webpack;
    compiler.hooks.compilation.tap('GatehouseRouterSubset', (compilation) => {
      // After FlagDependencyExportsPlugin (stage 0), which works out what the subset module exports.
      compilation.hooks.finishModules.tap({ name: 'GatehouseRouterSubset', stage: 100 }, (modules) => {
        const available = this.subsetExports(compilation, modules);
        if (available === null) return; // nothing imports the router
        for (const module of modules) {
          for (const dependency of module.dependencies) {
            if (!isRouterSpecifier(dependency)) continue;
            const name = dependency.getIds(compilation.moduleGraph)[0];
            if (name === undefined || available.has(name)) continue;
            const error = new WebpackError(outsideSubsetMessage(name, available));
            error.module = module;
            if (dependency.loc) error.loc = dependency.loc;
            compilation.errors.push(error);
          }
        }
      });
    });
  }

  private subsetExports(compilation: Compilation, modules: Iterable<Module>): Set<string> | null {
    for (const module of modules) {
      if ((module as { resource?: string }).resource !== this.subsetFile) continue;
      const provided = compilation.moduleGraph.getExportsInfo(module).getProvidedExports();
      // `true` means "unknown": the module could not be analysed, so nothing can be checked against it.
      return Array.isArray(provided) ? new Set(provided) : null;
    }
    return null;
  }
}

function isRouterSpecifier(dependency: Dependency): dependency is SpecifierDependency {
  const candidate = dependency as Partial<SpecifierDependency>;
  return (
    (dependency.type === 'harmony import specifier' || dependency.type === 'harmony export imported specifier') &&
    candidate.request === ROUTER_REQUEST &&
    typeof candidate.getIds === 'function'
  );
}
