import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { importCircles, sourcesUnder } from '@gatehouse/testkit/import-graph';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The dev IdP reads one way, from the HTTP surface down to the realm model: no module imports, even only
// for a type, a module that imports it back. testkit's import-graph walks the relative imports of src/.
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

test('src/ is grouped by concern: only the package entries at its top', () => {
  const loose = readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  assert.deepEqual(loose.sort(), ['index.ts', 'testRealm.ts']);
});

test('no import circles in dev-idp/src', () => {
  const found = importCircles(SRC);
  assert.ok(sourcesUnder(SRC).length > 40, 'the walk sees the source');
  assert.deepEqual(
    found.map((c) => c.join(' → ')),
    [],
  );
});
