import path from 'node:path';
import { SHARED_PACKAGES, STRICT_PACKAGES } from '@gatehouse/federation';
import { runContractCheck, type CliIo } from './cli';
import { formatReport } from './formatReport';
import { buildReleaseCheck } from './buildRelease';
import { printable } from './net/printable';
import type { ReadOptions } from './net/readUrl';
import {
  checkAgainstDeployedShell,
  defaultRemoteManifest,
  fetchJson,
  parseManifest,
  readRemoteManifest,
  registryOf,
  type JsonFetcher,
} from './shellOverHttp';

export const USAGE = `Usage: gatehouse-contract-check [--remote <dir>] [--shell <url or dir>] [--manifest <file>]
  --remote <dir>     the remote's folder (default: the current folder)
  --shell <url>      a deployed shell, e.g. https://app.example.com: reads its mf-manifest.json and config.json
                     and compares them with the remote's build (dist/mf-manifest.json; build first)
  --shell <dir>      a shell checked out next to the remote (default: shell/ of the workspace the remote is in);
                     compares the installed versions
  --manifest <file>  the remote's build manifest (default: <remote>/dist/mf-manifest.json)
Exit code: 0 the remote fits, 1 it does not (each mismatch is named with what to do), 2 wrong usage or unreadable input.`;

export interface DeployedShellIo extends CliIo {
  readonly fetchJson?: JsonFetcher;
  /** Limits of the network reads (default: readUrl's 10 s and 2 MB). */
  readonly readOptions?: ReadOptions;
}

/**
 * The \`gatehouse-contract-check\` command: against a deployed shell when --shell is an http(s) URL,
 * otherwise the local check (a shell folder). Resolves to the exit code.
 */
export async function runContractCheckCli(argv: readonly string[], rawIo: DeployedShellIo): Promise<number> {
  // Names and versions come from servers: nothing they send may drive the terminal.
  const io: DeployedShellIo = { ...rawIo, out: (t) => rawIo.out(printable(t)), err: (t) => rawIo.err(printable(t)) };
  const shellAt = argv.indexOf('--shell');
  const shell = shellAt >= 0 ? argv[shellAt + 1] : undefined;
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  if (shell === undefined || !/^https?:\/\//.test(shell)) return runContractCheck(argv, io);

  let remoteDir = io.cwd;
  let manifestFile: string | null = null;
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined || !['--shell', '--remote', '--manifest'].includes(flag ?? '')) {
      io.err(`Unknown or incomplete argument "${flag}".\n${USAGE}`);
      return 2;
    }
    if (flag === '--remote') remoteDir = path.resolve(io.cwd, value);
    if (flag === '--manifest') manifestFile = path.resolve(io.cwd, value);
  }
  const base = shell.endsWith('/') ? shell : `${shell}/`;
  const read = io.fetchJson ?? ((url: string) => fetchJson(url, io.readOptions));
  try {
    const remote = readRemoteManifest(manifestFile ?? defaultRemoteManifest(remoteDir));
    const shellManifestUrl = new URL('mf-manifest.json', base).href;
    const configUrl = new URL('config.json', base).href;
    const [shellManifest, config] = await Promise.all([read(shellManifestUrl), read(configUrl)]);
    const report = checkAgainstDeployedShell({
      shellUrl: shell,
      shell: parseManifest(shellManifest, shellManifestUrl),
      remote,
      shared: Object.values(SHARED_PACKAGES),
      strict: STRICT_PACKAGES,
    });
    const entry = registryOf(config).find((r) => r.name === remote.name);
    const registry = entry
      ? `Registry: ${configUrl} lists "${remote.name}" at ${entry.route ?? '(no route)'}, manifest ${entry.manifest}.`
      : `Registry: ${configUrl} does not list "${remote.name}" yet. To show it, add {"name": "${remote.name}", "manifest": "https://<where it is deployed>/mf-manifest.json", "route": "/${remote.name}", "title": "…"} to "remotes".`;
    // the build's signed release against the keys the deployed registry pins for it (decisions/0117)
    const release = entry ? await buildReleaseCheck(manifestFile ?? defaultRemoteManifest(remoteDir), entry) : { ok: true, line: '' };
    const ok = report.ok && release.ok;
    (ok ? io.out : io.err)(`${formatReport(report)}\n${registry}${release.line ? `\n${release.line}` : ''}`);
    return ok ? 0 : 1;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 2;
  }
}
