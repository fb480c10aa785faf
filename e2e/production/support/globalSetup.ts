import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { onKeycloak, startKeycloakUnlessRunning } from '../../support/provider';
import { PREVIEW_CONFIG, REPO_ROOT, runPreview } from './previewProcess';

/** What a production build is made from: a change in any of these makes the builds stale. */
const SOURCES = ['shell', 'auth-lib', 'tooling/federation', 'remotes', 'package-lock.json', 'tsconfig.base.json'];
const NOT_SOURCES = new Set(['node_modules', 'dist', 'dist-sourcemaps', 'test', 'coverage', 'test-results']);

/** The newest file below `path` (skipping builds and dependencies), as [mtime, path]. */
function newestSource(path: string): [number, string] {
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs, path];
  let newest: [number, string] = [0, path];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (NOT_SOURCES.has(entry.name)) continue;
    const found = newestSource(join(path, entry.name));
    if (found[0] > newest[0]) newest = found;
  }
  return newest;
}

/**
 * Written after each build the production specs make. webpack leaves an output file untouched when its
 * content did not change, so the builds' own times cannot say when they were made.
 */
const BUILD_STAMP = join(REPO_ROOT, '.preview/build-stamp');

/** Why the builds must be made again, or null when they are newer than every source. */
function whyRebuild(builds: string[]): string | null {
  if (process.env.GATEHOUSE_REBUILD === '1') return 'GATEHOUSE_REBUILD=1';
  // GATEHOUSE_REBUILD=0: the builds of this CI run are fresh already (npm run test:keycloak after npm test); the
  // checks below still rebuild when a source is newer.
  if (process.env.CI && process.env.GATEHOUSE_REBUILD !== '0') return 'CI always tests a fresh build';
  const missing = builds.find((file) => !existsSync(file));
  if (missing) return `${relative(REPO_ROOT, missing)} is missing`;
  if (!existsSync(BUILD_STAMP)) return 'no build made by these tests yet (.preview/build-stamp)';
  const builtAt = statSync(BUILD_STAMP).mtimeMs;
  const [changedAt, changed] = SOURCES.map((source) => newestSource(join(REPO_ROOT, source))).reduce((a, b) => (b[0] > a[0] ? b : a));
  return changedAt > builtAt ? `${relative(REPO_ROOT, changed)} changed after the last build` : null;
}

/**
 * Once for all production specs: make sure the production builds are those of the sources as they are
 * now (build them when missing, when a source is newer, or always in CI), say which builds are under
 * test, and start the identity provider of deploy/config/config.preview.json unless it answers (a real
 * Keycloak with GATEHOUSE_IDP=keycloak). Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const config = JSON.parse(readFileSync(PREVIEW_CONFIG, 'utf8')) as {
    remotes: Array<{ name: string }>;
  };
  const builds = [
    join(REPO_ROOT, 'shell/dist/index.html'),
    ...config.remotes.map((r) => join(REPO_ROOT, 'remotes', r.name, 'dist/mf-manifest.json')),
  ];
  const reason = whyRebuild(builds);
  if (reason) {
    process.stderr.write(`[production e2e] building the apps (npm run build): ${reason}\n`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error('npm run build failed (its errors are above); the production specs need the builds.');
    mkdirSync(dirname(BUILD_STAMP), { recursive: true });
    writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);
  }
  const builtAt = statSync(BUILD_STAMP).mtime.toISOString();
  process.stderr.write(
    `[production e2e] testing the builds in shell/dist and remotes/*/dist made at ${builtAt}${reason ? ' (just now)' : ' (newer than every source)'}\n`,
  );
  if (onKeycloak) return startKeycloakUnlessRunning();
  const idp = await runPreview(['--idp-only']);
  return async () => {
    await idp.stop();
  };
}
