// The relative-import graph of a source folder, for the tests that keep a package's layout (dev-idp's
// imports.test.ts, auth-lib's session/layout.test.ts): every `import … from`, `export … from`, `import type` and
// `import('…')` of a relative path counts, types included, since a type-only circle still ties the modules together.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The TypeScript sources under `dir` (tests included, declarations not). */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier of `from` names (`./x.js` → `x.ts`, `./dir` → `dir/index.ts`), or null. */
function resolveSpecifier(from: string, specifier: string) {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * Each source under `root` with the sources under `root` it imports.
 *
 * @returns absolute paths
 */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map();
  for (const file of sourcesUnder(root)) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms),
      ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
    ].map((match) => match[1] ?? '');
    const targets = specifiers.map((specifier) => resolveSpecifier(file, specifier));
    graph.set(
      file,
      targets.filter((target) => target !== null && target.startsWith(root)),
    );
  }
  return graph;
}

/**
 * Every import circle under `root`, each once, as the modules around it relative to `root` (empty: none).
 */
function importCircles(root: string): string[][] {
  const graph = importGraph(root);
  const found: Map<string, string[]> = new Map();
  const finished: Set<string> = new Set();
  /** depth-first, with the path so far; a module met again on the path closes a circle */
  const visit = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at >= 0) {
      const circle = path.slice(at).map((f) => relative(root, f));
      const key = [...circle].sort().join(' ');
      if (!found.has(key)) found.set(key, circle);
      return;
    }
    if (finished.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    finished.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return [...found.values()];
}

export { importCircles, importGraph, sourcesUnder };
