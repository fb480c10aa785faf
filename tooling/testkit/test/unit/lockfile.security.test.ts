import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

// Security round three: packages with published advisories are held at a fixed release by package.json's
// "overrides", and the lockfile (what `npm ci` installs) has no copy below it.
const ROOT = join(__dirname, '../../../..');
const FIXED: Record<string, { atLeast: string; advisories: string }> = {
  tar: { atLeast: '7.5.19', advisories: 'GHSA-23hp-3jrh-7fpw, GHSA-gvwx-54wh-qm9j, GHSA-8x88-c5mf-7j5w' },
};

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { overrides?: Record<string, string> };

test.each(Object.entries(FIXED))('every %s in the lockfile is a release with the fixes', (name, { atLeast, advisories }) => {
  const copies = Object.entries(lock.packages)
    .filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`))
    .map(([path, entry]) => ({ path, version: entry.version ?? '' }));
  expect(copies.length).toBeGreaterThan(0);
  expect(copies.filter(({ version }) => !semver.gte(version, atLeast))).toEqual([]);
  // pinned (an exact version) so a fresh lockfile cannot fall back below it
  expect({ advisories, override: semver.valid(manifest.overrides?.[name] ?? '') }).toEqual({ advisories, override: expect.any(String) });
});
