import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './previewProcess';

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end, collecting its output (never through a shell). */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Like run(), but a non-zero exit is an error that shows the output. */
export async function runOk(command: string, args: readonly string[], cwd: string): Promise<CommandResult> {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** `npm run pack:packages -- <destination>`: every published package built and packed, as the guide says. */
export async function packPackages(destination: string): Promise<void> {
  mkdirSync(destination, { recursive: true });
  await runOk('npm', ['run', '--silent', 'pack:packages', '--', destination], REPO_ROOT);
}

/**
 * `npm run new-remote -- <name> --outside <dir> <source> …`, the command a remote team runs; `source` says where
 * the packages come from: `['--packages', <dir>]` or `['--registry', <url>]` (plus `--skip-install` to install
 * yourself).
 */
export async function scaffoldOutside(
  name: string,
  dir: string,
  source: readonly string[],
  port: number,
  shellUrl: string,
): Promise<string> {
  // The scaffold adds the remote's dev address to this checkout's git-ignored realm overlay (decisions/0051), as
  // it should for a team; a test puts the developer's file back as it was, so no test address stays accepted.
  const overlay = join(REPO_ROOT, 'deploy/keycloak/gatehouse-realm.local.json');
  const before = existsSync(overlay) ? readFileSync(overlay, 'utf8') : null;
  try {
    const { stdout } = await runOk(
      'npm',
      ['run', '--silent', 'new-remote', '--', name, '--outside', dir, ...source, '--port', String(port), '--shell-url', shellUrl],
      REPO_ROOT,
    );
    return stdout;
  } finally {
    if (before === null) rmSync(overlay, { force: true });
    else writeFileSync(overlay, before);
  }
}
