import { spawnSync } from 'node:child_process';
import { startProcess, waitForUrl, type ManagedProcess } from '@gatehouse/testkit/processes';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO = path.join(__dirname, '..', '..');

/**
 * A throw-away checkout for `npm run new-remote -- … --root <dir>`: copies of the files the scaffold
 * edits (dev registry, demo realm, the remotes' manifests and webpack configs), links to the rest
 * (node_modules, tooling), so the generated remote builds and tests for real and the repository stays
 * unchanged.
 */
export function makeTempCheckout(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-new-remote-'));
  const copy = (file: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO, file), path.join(root, file));
  };
  // The root's own files (package.json, tsconfig.base.json, the jest preset…), whatever they are today.
  for (const entry of fs.readdirSync(REPO, { withFileTypes: true })) if (entry.isFile()) copy(entry.name);
  ['shell/package.json', 'shell/webpack.config.ts', 'shell/public/config.json', 'deploy/keycloak/gatehouse-realm.json'].forEach(copy);
  for (const remote of fs.readdirSync(path.join(REPO, 'remotes'))) {
    for (const file of ['package.json', 'webpack.config.ts']) {
      if (fs.existsSync(path.join(REPO, 'remotes', remote, file))) copy(`remotes/${remote}/${file}`);
    }
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  fs.symlinkSync(path.join(REPO, 'tooling'), path.join(root, 'tooling'));
  return root;
}

/** Runs a command to the end; throws with its output when it fails. */
export function run(command: string, args: readonly string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 180_000 });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status}):\n${output}`);
  return output;
}

/** Starts a long-running command in its own process group (tooling/testkit), so `stop` ends the whole tree. */
export function startInBackground(command: string, args: readonly string[], cwd: string): ManagedProcess {
  return startProcess(command, args, { cwd, stdio: 'ignore', env: { ...process.env, FORCE_COLOR: '0' } });
}

/** Waits until `url` answers 2xx. */
export function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  return waitForUrl(url, { timeoutMs });
}
