import { join, resolve } from 'node:path';
import { startProcess } from '@gatehouse/testkit/processes';
import { ownerLabel } from '../../support/owner';
import { onKeycloak } from '../../support/provider';

export const REPO_ROOT = resolve(__dirname, '../../..');
export const PREVIEW_CONFIG = join(REPO_ROOT, 'deploy/config/config.preview.json');
const PREVIEW_SCRIPT = join(REPO_ROOT, 'scripts/preview.mjs');

export interface PreviewProcess {
  /** SIGTERM, as Ctrl-C would: the preview stops nginx (and the provider it started) and exits */
  stop(): Promise<void>;
}

/**
 * Runs `node scripts/preview.mjs <args>` — the same entry point as `npm run preview` — and resolves
 * once it prints "[preview] ready". Its error output goes to this process's stderr.
 */
export function runPreview(args: string[], timeoutMs = 90_000): Promise<PreviewProcess> {
  // nginx's work folder (its config, pid file, logs): one per provider, since `.ci/run` runs the production suite
  // on the dev provider and on Keycloak at once (each in its own network namespace, so the ports do not clash).
  const workFolder = args.includes('--preview-dir') || !onKeycloak ? [] : ['--preview-dir', join(REPO_ROOT, '.preview/keycloak')];
  // A process group of its own, on this worker's leash: if the worker dies before its afterAll stops it, the
  // reaper does (decisions/0107); GATEHOUSE_OWNER names the spec that started it, in the run's registry.
  const preview = startProcess(process.execPath, [PREVIEW_SCRIPT, '--quiet', ...workFolder, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'pipe'],
    env: { ...process.env, GATEHOUSE_OWNER: ownerLabel() },
  });
  const { child } = preview;
  // SIGTERM, as Ctrl-C would; the preview stops nginx and the rest itself (then SIGKILL to what is left after 15 s)
  const stop = () => preview.stop(15_000);
  return new Promise<PreviewProcess>((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`scripts/preview.mjs ${args.join(' ')} was not ready within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      // The preview's own progress lines are noise in a test run; nginx's and the provider's errors are not.
      const errors = text.split('\n').filter((line) => line.trim() && !line.startsWith('[preview] '));
      if (errors.length > 0) process.stderr.write(`${errors.join('\n')}\n`);
      if (output.includes('[preview] ready')) {
        clearTimeout(timer);
        resolvePromise({ stop });
      }
    });
    child.once('exit', (code) => {
      if (output.includes('[preview] ready')) return;
      clearTimeout(timer);
      reject(new Error(`scripts/preview.mjs ${args.join(' ')} exited (${code}) before it was ready:\n${output}`));
    });
  });
}
