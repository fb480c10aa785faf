import path from 'node:path';
import { SHARED_PACKAGES, STRICT_PACKAGES } from '@gatehouse/federation';
import { findShellDir, readAppPackage, readInstalledVersion, type InstalledVersionReader } from './appPackage';
import { checkContract } from './checkContract';
import { checkConfigFiles } from './configFiles';
import { formatReport } from './formatReport';

const USAGE = `Usage: contract-check [--remote <dir>] [--shell <dir>]
  --remote <dir>  the remote's folder (default: the current folder, as \`npm run check -w remotes/<name>\` runs it)
  --shell <dir>   the shell's folder (default: shell/ of the workspace the remote is in)`;

export interface CliIo {
  readonly cwd: string;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly readInstalled?: InstalledVersionReader;
}

/**
 * `npm run check` of a remote: checks its shared dependencies against the shell and the config.json files
 * against config.schema.json (@gatehouse/config), and returns the exit code
 * (0 fits, 1 does not fit, 2 wrong usage).
 */
export function runContractCheck(argv: readonly string[], io: CliIo): number {
  let remoteDir = io.cwd;
  let shellDir: string | null = null;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = argv[i + 1];
    if ((arg === '--remote' || arg === '--shell') && value !== undefined) {
      if (arg === '--remote') remoteDir = path.resolve(io.cwd, value);
      else shellDir = path.resolve(io.cwd, value);
      i += 1;
    } else if (arg === '--help' || arg === '-h') {
      io.out(USAGE);
      return 0;
    } else {
      io.err(`Unknown argument "${arg}".\n${USAGE}`);
      return 2;
    }
  }
  shellDir ??= findShellDir(remoteDir);
  if (shellDir === null) {
    io.err(`No shell found above ${remoteDir} (a workspace root with shell/package.json). Pass it with --shell <dir>.`);
    return 2;
  }
  try {
    const readInstalled = io.readInstalled ?? readInstalledVersion;
    const remote = readAppPackage(remoteDir, readInstalled);
    const shell = readAppPackage(shellDir, readInstalled);
    const report = checkContract({
      shell,
      remote,
      shared: Object.values(SHARED_PACKAGES),
      strict: STRICT_PACKAGES,
      // Named from the repository root, the way a person looks for the file.
      remoteManifest: path.relative(path.dirname(shellDir), path.join(remoteDir, 'package.json')),
    });
    (report.ok ? io.out : io.err)(formatReport(report));
    const configProblems = checkConfigFiles(shellDir, remoteDir);
    if (configProblems.length > 0) {
      io.err(`✗ config.json does not pass config.schema.json (@gatehouse/config):\n  ${configProblems.join('\n  ')}`);
    }
    return report.ok && configProblems.length === 0 ? 0 : 1;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 2;
  }
}
