import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PREVIEW_CONFIG, REPO_ROOT, runPreview } from './previewProcess';

/**
 * Once for all production specs: make sure the production builds exist (build them if not), and
 * that the identity provider of deploy/config/config.preview.json answers (start the dev provider if
 * not). Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const config = JSON.parse(readFileSync(PREVIEW_CONFIG, 'utf8')) as {
    remotes: Array<{ name: string }>;
  };
  const builds = [join(REPO_ROOT, 'shell/dist/index.html'), ...config.remotes.map((r) => join(REPO_ROOT, 'remotes', r.name, 'dist/mf-manifest.json'))];
  if (builds.some((file) => !existsSync(file)) || process.env.GATEHOUSE_REBUILD === '1') {
    process.stderr.write('[production e2e] building the apps (npm run build)\n');
    const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed; the production specs need the builds.');
  }
  const idp = await runPreview(['--idp-only']);
  return async () => {
    await idp.stop();
  };
}
