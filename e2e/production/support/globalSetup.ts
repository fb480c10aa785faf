import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { lock } from 'proper-lockfile';
import { onKeycloak, startKeycloakUnlessRunning } from '../../support/provider';
import { PREVIEW_CONFIG, REPO_ROOT, runPreview } from './previewProcess';
import { ensureLocalReleaseKey, localPublicKey, signerOf } from '../../../scripts/releaseKey.cjs';

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
/** Held while one run checks and makes the builds (ensureProductionBuilds). */
const BUILD_LOCK = join(REPO_ROOT, '.preview/builds.lock');

/** Why the builds must be made again, or null when they are newer than every source. */
function whyRebuild(builds: string[], signer: string): string | null {
  if (process.env.GATEHOUSE_REBUILD === '1') return 'GATEHOUSE_REBUILD=1';
  const missing = builds.find((file) => !existsSync(file));
  if (missing) return `${relative(REPO_ROOT, missing)} is missing`;
  const unsigned = builds.map(dirname).find((dir) => dir.includes('/remotes/') && signerOf(dir) !== signer);
  if (unsigned) return `${relative(REPO_ROOT, unsigned)} is not signed by this machine's local release key`;
  if (!existsSync(BUILD_STAMP)) return 'no build made by these tests yet (.preview/build-stamp)';
  const builtAt = statSync(BUILD_STAMP).mtimeMs;
  const [changedAt, changed] = SOURCES.map((source) => newestSource(join(REPO_ROOT, source))).reduce((a, b) => (b[0] > a[0] ? b : a));
  return changedAt > builtAt ? `${relative(REPO_ROOT, changed)} changed after the last build` : null;
}

/**
 * Makes sure the production builds are those of the sources as they are now (builds them when missing, when
 * a source is newer; CI's clean clone has no builds, so it builds once and every suite of the run shares it) and
 * says which builds are under test. Shared by every suite that tests the production builds (this one, e2e/https,
 * e2e/registry, e2e/cluster), so one build serves them all.
 *
 * Suites that start at once (`npm test` beside `npm run test:keycloak` in `.ci/run`, two terminals) take turns:
 * the first holds `.preview/builds.lock` (proper-lockfile: kept fresh while its holder lives, taken over when
 * its holder died) while it checks and builds, the others wait for it and then find the builds made.
 */
export async function ensureProductionBuilds(suite = 'production e2e'): Promise<void> {
  const config = JSON.parse(readFileSync(PREVIEW_CONFIG, 'utf8')) as {
    remotes: Array<{ name: string }>;
  };
  const builds = [
    join(REPO_ROOT, 'shell/dist/index.html'),
    ...config.remotes.map((r) => join(REPO_ROOT, 'remotes', r.name, 'dist/mf-manifest.json')),
  ];
  mkdirSync(dirname(BUILD_STAMP), { recursive: true });
  const release = await lock(dirname(BUILD_STAMP), {
    lockfilePath: BUILD_LOCK,
    realpath: false,
    stale: 20_000,
    // a build takes a few minutes on a busy 2-core machine; wait up to 15
    retries: { retries: 900, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
    onCompromised: (error) => {
      throw new Error(`lost ${relative(REPO_ROOT, BUILD_LOCK)} while building: ${error.message}`);
    },
  }).catch((error: unknown) => {
    throw new Error(
      `waited 15 minutes for another run's production builds (${relative(REPO_ROOT, BUILD_LOCK)} is held); if no other test run is building, delete it and run again: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  try {
    // the remotes' builds are signed with the local release key (decisions/0117), which the preview and the specs pin,
    // whatever team key this shell's environment names
    process.env.GATEHOUSE_RELEASE_KEY_FILE = ensureLocalReleaseKey();
    delete process.env.GATEHOUSE_RELEASE_KEY;
    const reason = whyRebuild(builds, localPublicKey().kid);
    if (reason) {
      process.stderr.write(`[${suite}] building the apps (npm run build): ${reason}\n`);
      const status = await new Promise<number | null>((resolve) => {
        const build = spawn('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
        build.once('error', () => resolve(null));
        build.once('exit', (code) => resolve(code));
      });
      if (status !== 0) throw new Error('npm run build failed (its errors are above); the production specs need the builds.');
      writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);
    }
    const builtAt = statSync(BUILD_STAMP).mtime.toISOString();
    process.stderr.write(
      `[${suite}] testing the builds in shell/dist and remotes/*/dist made at ${builtAt}${reason ? ' (just now)' : ' (newer than every source)'}\n`,
    );
  } finally {
    await release();
  }
}

/**
 * Once for all production specs: the builds of the sources as they are now (ensureProductionBuilds), the
 * identity provider of deploy/config/config.preview.json unless it answers, and the demo API on :4010 (which
 * verifies that provider's tokens, Keycloak's too). Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  await ensureProductionBuilds();
  const stopIdp = onKeycloak ? await startKeycloakUnlessRunning() : (await runPreview(['--idp-only'])).stop;
  const api = await runPreview(['--demo-api-only']);
  return async () => {
    await api.stop();
    await stopIdp();
  };
}
