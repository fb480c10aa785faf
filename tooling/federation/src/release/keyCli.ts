import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generateReleaseKey, RELEASE_KEY_ENV, RELEASE_KEY_FILE_ENV } from './sign';

export const KEY_USAGE = `Usage: gatehouse-release-key <remote> [--out <file>]
  Makes a release signing key pair for a remote (ECDSA P-256, decisions/0117): writes the private key (PKCS #8 PEM,
  mode 0600) to <remote>.release-key.pem in the current folder, or --out <file>, and prints the public key to pin in
  the shell's config.json ("signingKeys" of the remote's entry). The file must not exist and, inside a git
  repository, must be git-ignored (*.release-key.pem).
  In this repository: npm run release-key -- <remote> [--out <file>]`;

export interface KeyCliIo {
  readonly cwd: string;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** `gatehouse-release-key`: resolves to the exit code (0 made, 1 refused, 2 wrong usage). */
export async function runReleaseKeyCli(argv: readonly string[], io: KeyCliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(KEY_USAGE);
    return 0;
  }
  const outAt = argv.indexOf('--out');
  const outValue = outAt >= 0 ? argv[outAt + 1] : undefined;
  const rest = argv.filter((_, i) => outAt < 0 || (i !== outAt && i !== outAt + 1));
  const [remote, ...extra] = rest;
  if (remote === undefined || extra.length > 0 || (outAt >= 0 && outValue === undefined) || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(remote)) {
    io.err(`Give the remote's federation name (e.g. profile) and at most --out <file>.\n${KEY_USAGE}`);
    return 2;
  }
  const file = path.resolve(io.cwd, outValue ?? `${remote}.release-key.pem`);
  if (fs.existsSync(file)) {
    io.err(
      `${file} exists: a release key is never overwritten (releases signed with it would stop verifying). Move it away, or pass --out <another file>.`,
    );
    return 1;
  }
  const tracked = gitWouldTrack(file);
  if (tracked) {
    io.err(
      `${file} is inside the git repository ${tracked} and not git-ignored: the private key must never be committed. Add "*.release-key.pem" to .gitignore, or pass --out <a file outside the repository>.`,
    );
    return 1;
  }
  const { privatePem, publicJwk } = await generateReleaseKey();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, privatePem, { mode: 0o600, flag: 'wx' });
  fs.chmodSync(file, 0o600);
  io.out(
    [
      `Wrote the private release key of "${remote}" to ${file} (mode 0600). Keep it secret: store its content as the CI secret ${RELEASE_KEY_ENV} (or point ${RELEASE_KEY_FILE_ENV} at the file) where the production build runs, then delete this copy or keep it offline.`,
      '',
      `Its public key (id ${publicJwk.kid}): pin it in the shell's config.json, in the entry of "${remote}":`,
      '',
      `  "signingKeys": [${JSON.stringify(publicJwk)}]`,
      '',
      `To rotate: pin the new public key beside the old one (two keys), deploy the shell, sign the next release with the new key, then remove the old one.`,
    ].join('\n'),
  );
  return 0;
}

/** The repository's top folder when `file` is inside a git work tree and not ignored; undefined otherwise. */
function gitWouldTrack(file: string): string | undefined {
  const dir = path.dirname(file);
  const cwd = fs.existsSync(dir) ? dir : nearestExisting(dir);
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8' });
  if (top.status !== 0) return undefined; // not in a repository (or no git): nothing could commit it
  const ignored = spawnSync('git', ['check-ignore', '-q', '--no-index', file], { cwd, encoding: 'utf8' });
  return ignored.status === 0 ? undefined : top.stdout.trim();
}

function nearestExisting(dir: string): string {
  let current = dir;
  while (!fs.existsSync(current)) current = path.dirname(current);
  return current;
}
