import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './previewProcess';

/** The Gatehouse packages a remote in its own repository installs, by folder. */
export const PUBLISHED_PACKAGE_DIRS = ['auth-lib', 'tooling/federation', 'tooling/contract-check'];

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

/** `npm pack` of every published package (its prepack builds it) into `destination`. */
export async function packPackages(destination: string): Promise<void> {
  mkdirSync(destination, { recursive: true });
  for (const dir of PUBLISHED_PACKAGE_DIRS)
    await runOk('npm', ['pack', '--silent', '--pack-destination', destination], join(REPO_ROOT, dir));
}

/** `npm run new-remote -- <name> --outside <dir> --packages <packs> …`, the command a remote team runs. */
export async function scaffoldOutside(name: string, dir: string, packs: string, port: number, shellUrl: string): Promise<void> {
  await runOk(
    'npm',
    ['run', '--silent', 'new-remote', '--', name, '--outside', dir, '--packages', packs, '--port', String(port), '--shell-url', shellUrl],
    REPO_ROOT,
  );
}
