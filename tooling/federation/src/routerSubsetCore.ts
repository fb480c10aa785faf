import fs from 'node:fs';
import type * as TypeScript from 'typescript';
import { siblingModule } from './workspaceSource';

/**
 * The router-subset guard's core, shared by its three bundler plugins (webpack: routerSubset.ts; Vite/Rollup:
 * vite.ts; Rsbuild/Rspack: rsbuild.ts): the request apps write, the subset's export list, the imports of a source
 * file from that request, and the error message (decisions/0007).
 */

/** The request remotes write; every Gatehouse build shares it under this name (the subset on the shell's pages). */
export const ROUTER_REQUEST = 'react-router-dom';
/** The router API every app shares as `react-router-dom` (decisions/0007). */
export const ROUTER_SUBSET = siblingModule('router');

/** One name a module imports (or re-exports) from `react-router-dom`, where it is written (1-based line and column). */
export interface RouterImport {
  readonly name: string;
  readonly line: number;
  readonly column: number;
}

/** The error a build reports for an import of `name` from the router outside the subset. */
export function outsideSubsetMessage(name: string, available: Iterable<string>): string {
  return (
    `'${name}' is not part of the router API that Gatehouse apps share as '${ROUTER_REQUEST}'. ` +
    `It offers: ${[...available].sort().join(', ')}. ` +
    `To use another export, add it to @gatehouse/federation's src/router.ts and deploy the shell before ` +
    `the remotes that use it (decisions/0007-shared-router-subset.md).`
  );
}

let subsetNames: ReadonlySet<string> | undefined;

/** The names the subset exports (values only: its `export type` lines are no run-time API), read from its source. */
export function routerSubsetExports(): ReadonlySet<string> {
  subsetNames ??= new Set(
    moduleSpecifiers(ROUTER_SUBSET, fs.readFileSync(ROUTER_SUBSET, 'utf8'), (declaration) => declaration.moduleSpecifier !== undefined)
      .filter((found) => found.kind === 'export')
      .map((found) => found.exported),
  );
  return subsetNames;
}

/**
 * What `fileName` (TypeScript or JavaScript source, JSX allowed) imports or re-exports by name from `react-router-dom`;
 * type-only imports are left out (they are gone at run time). `import * as` is not listed: its names are read off
 * the namespace at run time, which no build can check.
 */
export function routerImports(fileName: string, code: string): RouterImport[] {
  if (!code.includes(ROUTER_REQUEST)) return [];
  return moduleSpecifiers(fileName, code, (declaration) => isRouterRequest(declaration.moduleSpecifier)).map(({ name, line, column }) => ({
    name,
    line,
    column,
  }));
}

/** The imports of `fileName` from the router that the subset does not export, each with the build error to report. */
export function routerSubsetProblems(fileName: string, code: string): Array<RouterImport & { readonly message: string }> {
  const imports = routerImports(fileName, code);
  if (imports.length === 0) return [];
  const available = routerSubsetExports();
  return imports
    .filter((found) => !available.has(found.name))
    .map((found) => ({ ...found, message: outsideSubsetMessage(found.name, available) }));
}

interface FoundName extends RouterImport {
  readonly kind: 'import' | 'export';
  /** the name the declaration gives it (differs from `name` for `export { a as b } from …`) */
  readonly exported: string;
}

function isRouterRequest(specifier: TypeScript.Expression | undefined): boolean {
  return specifier !== undefined && 'text' in specifier && (specifier as TypeScript.StringLiteral).text === ROUTER_REQUEST;
}

/** Value names of the import and export-from declarations of a file that `accept` keeps (TypeScript's parser). */
function moduleSpecifiers(
  fileName: string,
  code: string,
  accept: (declaration: TypeScript.ImportDeclaration | TypeScript.ExportDeclaration) => boolean,
): FoundName[] {
  // Loaded when a build asks: the webpack preset has it through ts-loader, a Vite or Rsbuild remote as its typecheck's.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof TypeScript;
  const kind = /\.[cm]?tsx$|\.jsx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[cm]?ts$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JSX;
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, kind);
  const found: FoundName[] = [];
  const at = (node: TypeScript.Node) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return { line: line + 1, column: character + 1 };
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && accept(statement)) {
      const clause = statement.importClause;
      if (!clause || clause.isTypeOnly) continue;
      if (clause.name) found.push({ kind: 'import', name: 'default', exported: clause.name.text, ...at(clause.name) });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          const name = (element.propertyName ?? element.name).text;
          if (!element.isTypeOnly) found.push({ kind: 'import', name, exported: element.name.text, ...at(element) });
        }
      }
    } else if (ts.isExportDeclaration(statement) && accept(statement) && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          if (element.isTypeOnly) continue;
          found.push({ kind: 'export', name: (element.propertyName ?? element.name).text, exported: element.name.text, ...at(element) });
        }
      }
    }
  }
  return found;
}
