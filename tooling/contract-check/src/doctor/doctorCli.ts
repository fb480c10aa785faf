import { readFileSync } from 'node:fs';
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import path from 'node:path';
import type { CliIo } from '../cli';
import { printable } from '../net/printable';
import { readUrl, ReadError, DEFAULT_TIMEOUT_MS, type ReadOptions } from '../net/readUrl';
import { diagnose } from './diagnose';
import type { Diagnosis } from './problems';

export const DOCTOR_USAGE = `Usage: gatehouse-doctor <shell url> [--ca <pem file>] [--resolve <host>:<address>]… [--timeout <ms>] [--allow-private]
  Reads a deployed shell as visitors' browsers do (its page, config.json, the identity provider's discovery,
  each remote's manifest and files) and names every problem with what breaks and what to do.
  --ca <file>                  trust this CA too (PEM), e.g. a private CA of a test deployment
  --resolve <host>:<address>   reach <host> at <address> (as curl's --resolve), e.g. before DNS points at it
  --timeout <ms>               limit of each read, headers and body (default ${DEFAULT_TIMEOUT_MS})
  --allow-private              read loopback and private addresses too (refused by default: the addresses the
                               doctor reads come from the deployment it checks), e.g. for a deployment on a
                               private network or one reached with --resolve <host>:10.0.0.5
Exit code: 0 no problem found, 1 problems (each named), 2 wrong usage or the shell cannot be read.`;

interface DoctorArgs {
  shell: string;
  options: ReadOptions;
}

/** The `gatehouse-doctor` command; resolves to the exit code. */
export async function runDoctorCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  // Everything printed may come from a server: nothing in it may drive the terminal.
  const io: CliIo = { ...rawIo, out: (t) => rawIo.out(printable(t)), err: (t) => rawIo.err(printable(t)) };
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(DOCTOR_USAGE);
    return 0;
  }
  let args: DoctorArgs;
  try {
    args = parseArgs(argv, io.cwd);
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n${DOCTOR_USAGE}`);
    return 2;
  }
  let diagnosis: Diagnosis;
  try {
    diagnosis = await diagnose(args.shell, (url, options) => readUrl(url, { ...args.options, ...options }));
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    io.err(`The shell cannot be read: ${error.message}`);
    return 2;
  }
  (diagnosis.problems.length > 0 ? io.err : io.out)(formatDiagnosis(diagnosis));
  return diagnosis.problems.length > 0 ? 1 : 0;
}

/** The report: each problem with what breaks and what to do, then what passed. */
export function formatDiagnosis({ shell, problems, passed }: Diagnosis): string {
  const lines = [`Deploy doctor: ${shell}`, ''];
  for (const problem of problems) {
    lines.push(`✗ ${problem.code}  ${problem.what}`, `    What breaks: ${problem.breaks}`, `    What to do: ${problem.fix}`);
  }
  if (problems.length > 0) lines.push('');
  for (const line of passed) lines.push(`✓ ${line}`);
  lines.push(
    '',
    problems.length === 0
      ? `✓ No problem found (${passed.length} checks passed).`
      : `✗ ${problems.length} problem${problems.length === 1 ? '' : 's'} found, ${passed.length} checks passed.`,
  );
  return lines.join('\n');
}

function parseArgs(argv: readonly string[], cwd: string): DoctorArgs {
  let shell: string | undefined;
  const resolve = new Map<string, string>();
  let ca: string | undefined;
  let timeoutMs: number | undefined;
  let allowPrivate = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--allow-private') {
      allowPrivate = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      if (shell !== undefined) throw new Error(`One shell address, please (got "${shell}" and "${arg}").`);
      shell = arg;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${arg} needs a value.`);
    if (arg === '--ca') ca = readFileSync(path.resolve(cwd, value), 'utf8');
    else if (arg === '--timeout' && /^\d+$/.test(value)) timeoutMs = Number(value);
    else if (arg === '--resolve' && /^[^:]+:.+$/.test(value))
      resolve.set(value.slice(0, value.indexOf(':')).toLowerCase(), value.slice(value.indexOf(':') + 1));
    else throw new Error(`Unknown option or bad value: ${arg} ${value}.`);
  }
  if (shell === undefined || !/^https?:\/\/[^/]/.test(shell))
    throw new Error("Pass the shell's address, e.g. gatehouse-doctor https://app.example.com");
  return {
    shell,
    options: { ca, timeoutMs, lookup: resolve.size > 0 ? resolvingLookup(resolve) : undefined, refusePrivate: !allowPrivate },
  };
}

/** The system's name resolution, except for the `--resolve` names. */
function resolvingLookup(names: ReadonlyMap<string, string>): LookupFunction {
  return (hostname, options, callback) => {
    const address = names.get(hostname.toLowerCase());
    if (address === undefined) return systemLookup(hostname, options, callback);
    const family = address.includes(':') ? 6 : 4;
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, [{ address, family }]);
    return (callback as (e: null, a: string, f: number) => void)(null, address, family);
  };
}
