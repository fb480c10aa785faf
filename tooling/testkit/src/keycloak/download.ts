// Keycloak's server distribution, fetched from Maven Central with Maven (cached in ~/.m2), its SHA-512 checked
// against the pinned one, unpacked into .keycloak/ (decisions/0034).

import { createHash } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startProcess } from '../processes';
import { isDebian, isRoot, onPath } from '../systemTools';

import { defaultLog, heartbeat, KEYCLOAK_VERSION, KeycloakRunnerError } from './common';

/** The command that installs Maven on this machine. */
export function mavenInstallCommand() {
  if (process.platform === 'darwin') return 'brew install maven';
  return isDebian() ? `${isRoot() ? '' : 'sudo '}apt-get install -y maven` : "your system's `maven` package";
}

/**
 * The SHA-512 of each Keycloak server distribution the runner may run (keycloak-quarkus-dist-<version>.zip): the
 * digest Maven Central publishes beside the file (….zip.sha512), checked here before the zip is unpacked or any of
 * it runs. A new KEYCLOAK_VERSION needs its line.
 */
export const KEYCLOAK_SHA512 = Object.freeze({
  '26.7.3':
    '15c764765576eef267cf15cc5225a5826b5394a25a83d9bfa5b8544e4bbba690cb743c9d384200b93bb71ee4c4a328e1dd8c0a00f822fd3e6e154f14b1e47216',
});
/** Written into a home unpacked from a verified zip: the zip's SHA-512. A home without it is fetched again. */
export const VERIFIED_STAMP = '.gatehouse-verified-sha512';

/** The SHA-512 of a file, hex. */
export function sha512Of(file: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('sha512');
    createReadStream(file)
      .on('error', reject)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolvePromise(hash.digest('hex')));
  });
}

/**
 * Runs a command to its end; resolves to its exit code and output.
 */
export async function run(
  command: string,
  args: readonly string[],
  { cwd, env }: { cwd: string; env: NodeJS.ProcessEnv },
  onLine: (line: string) => void = () => {},
) {
  const child = startProcess(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const line of chunk.toString().split('\n')) onLine(line);
  };
  child.child.stdout?.on('data', collect);
  child.child.stderr?.on('data', collect);
  const { code } = await child.exited;
  return { code, output };
}

/**
 * The unpacked distribution `<dir>/keycloak-<version>`, fetched with Maven the first time: Maven downloads the
 * zip into ~/.m2 (once; `-C`: a checksum mismatch with the repository fails instead of warning) and copies it
 * into a scratch folder, where its SHA-512 is compared with the pinned one (KEYCLOAK_SHA512) **before** it is
 * unpacked (`unzip`, else the JDK's `jar`). Unpacks into the scratch folder and renames it, so an interrupted
 * unpack is never taken for a finished one; the home carries the zip's digest (VERIFIED_STAMP), and a home
 * without the pinned digest (an older runner's, or anyone's) is fetched again before it runs.
 *
 * @param options `mavenArgs` e.g. `-Dmaven.repo.local=<dir>`; `env` has
 *   the PATH to find mvn (and unzip or jar) on; `sha512` the digest to expect (default KEYCLOAK_SHA512[version])
 * @returns the Keycloak home
 */
export async function obtainKeycloak({
  dir,
  version = KEYCLOAK_VERSION,
  log = defaultLog,
  mavenArgs = [],
  env = process.env,
  sha512,
}: {
  dir: string;
  version?: string;
  log?: (message: string) => void;
  mavenArgs?: readonly string[];
  env?: NodeJS.ProcessEnv;
  sha512?: string;
}): Promise<string> {
  const expected = sha512 ?? KEYCLOAK_SHA512[version as keyof typeof KEYCLOAK_SHA512];
  if (!expected)
    throw new KeycloakRunnerError(
      'KEYCLOAK_DOWNLOAD_FAILED',
      `No SHA-512 is pinned for Keycloak ${version}: add the digest Maven Central publishes (keycloak-quarkus-dist-${version}.zip.sha512) to KEYCLOAK_SHA512 in tooling/testkit/src/keycloak/download.ts.`,
    );
  const home = join(dir, `keycloak-${version}`);
  const stamp = join(home, VERIFIED_STAMP);
  if (existsSync(join(home, 'bin/kc.sh'))) {
    if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === expected) return home;
    log(`${relative(process.cwd(), home) || home} was not unpacked from a verified download: fetching Keycloak ${version} again`);
  }
  const mvn = onPath('mvn', env.PATH ?? '');
  if (!mvn)
    throw new KeycloakRunnerError(
      'KEYCLOAK_NO_MAVEN',
      `Maven is needed to fetch Keycloak ${version} (mvn is not on PATH). Install it with \`${mavenInstallCommand()}\`, then run the command again.`,
    );
  const unpacking = join(dir, `.unpacking-${process.pid}`);
  rmSync(unpacking, { recursive: true, force: true });
  mkdirSync(unpacking, { recursive: true });
  const fail = (error: KeycloakRunnerError) => {
    rmSync(unpacking, { recursive: true, force: true });
    return error;
  };
  const artifact = `org.keycloak:keycloak-quarkus-dist:${version}:zip`;
  log(`fetching Keycloak ${version} with Maven (${artifact}; ~150 MB the first time, then from ~/.m2) …`);
  const started = Date.now();
  const done = heartbeat(log, 'still fetching');
  // Run in the scratch folder: without a pom, the plugin leaves a "${project.basedir}" folder in its working directory.
  const args = ['-B', '-C', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${unpacking}`, ...mavenArgs];
  const zip = join(unpacking, `keycloak-quarkus-dist-${version}.zip`);
  const maven = await run(mvn, args, { cwd: unpacking, env }, (line) => {
    if (/Download(ing|ed) from .*keycloak-quarkus-dist/.test(line)) log(line.trim());
  }).finally(done);
  if (maven.code !== 0 || !existsSync(zip)) {
    const errors = maven.output
      .split('\n')
      .filter((line) => /ERROR/.test(line))
      .slice(0, 8)
      .join('\n');
    throw fail(
      new KeycloakRunnerError(
        'KEYCLOAK_DOWNLOAD_FAILED',
        `\`mvn ${args.join(' ')}\` failed (exit code ${maven.code}):\n${errors || maven.output.slice(-2000)}\nCheck that Maven reaches Maven Central (a proxy goes into ~/.m2/settings.xml), then run the command again.`,
      ),
    );
  }
  const actual = await sha512Of(zip);
  if (actual !== expected)
    throw fail(
      new KeycloakRunnerError(
        'KEYCLOAK_CHECKSUM_MISMATCH',
        `The Keycloak ${version} download is not the published one: its SHA-512 is ${actual}, expected ${expected}. Nothing of it was unpacked or run. Delete the copy in your Maven repository (~/.m2/repository/org/keycloak/keycloak-quarkus-dist/${version}/) and check your Maven mirror, then run the command again.`,
      ),
    );
  const unzip = onPath('unzip', env.PATH ?? '');
  const jar = unzip ? null : onPath('jar', `${env.JAVA_HOME ? join(env.JAVA_HOME, 'bin') : ''}:${env.PATH ?? ''}`);
  if (!unzip && !jar)
    throw fail(
      new KeycloakRunnerError(
        'KEYCLOAK_DOWNLOAD_FAILED',
        "Unpacking Keycloak needs `unzip` or the JDK's `jar` on PATH: install unzip, then run the command again.",
      ),
    );
  const unpacked = unzip
    ? await run(unzip, ['-q', zip], { cwd: unpacking, env })
    : await run(jar as string, ['xf', zip], { cwd: unpacking, env });
  if (unpacked.code !== 0 || !existsSync(join(unpacking, `keycloak-${version}/bin/kc.sh`)))
    throw fail(
      new KeycloakRunnerError(
        'KEYCLOAK_DOWNLOAD_FAILED',
        `Unpacking ${zip} failed (exit code ${unpacked.code}):\n${unpacked.output.slice(-2000)}`,
      ),
    );
  // `jar` keeps no file modes
  for (const script of readdirSync(join(unpacking, `keycloak-${version}/bin`)).filter((f) => f.endsWith('.sh')))
    chmodSync(join(unpacking, `keycloak-${version}/bin`, script), 0o755);
  writeFileSync(join(unpacking, `keycloak-${version}`, VERIFIED_STAMP), `${actual}\n`);
  rmSync(home, { recursive: true, force: true });
  renameSync(join(unpacking, `keycloak-${version}`), home);
  rmSync(unpacking, { recursive: true, force: true });
  log(
    `Keycloak ${version} (SHA-512 verified) is in ${relative(process.cwd(), home) || home} (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  return home;
}
