import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The dev IdP reads one way, from the HTTP surface down to the realm model: no module imports, even only
// for a type, a module that imports it back (issue 23 part 6). This walks the relative imports of src/.
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The src modules a module imports or re-exports (`import … from`, `export … from`, `import type`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)].map((m) => m[1] ?? '');
  return specifiers.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

/** Every import circle, each as the list of modules around it (relative to src/). */
function circles(): string[][] {
  const graph = new Map(modules(SRC).map((file) => [file, importsOf(file)]));
  const found = new Map<string, string[]>();
  const visit = (file: string, path: string[]): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      const circle = path.slice(at).map((f) => relative(SRC, f));
      const key = [...circle].sort().join(' ');
      if (!found.has(key)) found.set(key, circle);
      return;
    }
    if (path.length > 40) return;
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
  };
  const done = new Set<string>();
  for (const file of graph.keys()) {
    visit(file, []);
    done.add(file);
  }
  return [...found.values()];
}

test('src/ is grouped by concern: only the package entries at its top', () => {
  const loose = readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  assert.deepEqual(loose.sort(), ['index.ts', 'testRealm.ts']);
});

test('no import circles in dev-idp/src', () => {
  const found = circles();
  assert.ok(modules(SRC).length > 40, 'the walk sees the source');
  assert.deepEqual(
    found.map((c) => c.join(' → ')),
    [],
  );
});
