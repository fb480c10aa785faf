// Which Java runs Keycloak: the first of JAVA_HOME, `java` on PATH, then the JDKs under /usr/lib/jvm
// (and macOS's /Library/Java/JavaVirtualMachines) whose major version is at least the one asked for.
// Plain Node, no dependencies.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDebian, isExecutable, onPath } from './systemTools';

/** Where JDKs are installed, searched after JAVA_HOME and PATH. */
const JVM_FOLDERS = ['/usr/lib/jvm', '/Library/Java/JavaVirtualMachines'];

export interface FoundJava {
  /** the Java home (what JAVA_HOME must be for kc.sh) */
  home: string;
  /** e.g. 25 */
  major: number;
  /** where it was found: "JAVA_HOME", "PATH" or the folder it was found in */
  source: string;
}

/** An error with a stable code, for callers that branch on the failure instead of its text. */
class JavaNotFoundError extends Error {
  readonly code: 'JAVA_TOO_OLD_OR_MISSING';

  constructor(message: string) {
    super(message);
    this.name = 'JavaNotFoundError';
    this.code = 'JAVA_TOO_OLD_OR_MISSING';
  }
}

/**
 * The major version of the Java at `home`, from its `release` file (JAVA_VERSION="25.0.3"), or by asking
 * `bin/java -version` when there is none; null when there is no Java there.
 */
function javaMajor(home: string): number | null {
  const java = join(home, 'bin', 'java');
  if (!isExecutable(java)) return null;
  try {
    const release = readFileSync(join(home, 'release'), 'utf8');
    const version = /^JAVA_VERSION="([^"]+)"/m.exec(release)?.[1];
    if (version) return majorOf(version);
  } catch {
    // no release file: ask the binary
  }
  const answer = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 20_000 });
  const version = /version "([^"]+)"/.exec(`${answer.stderr ?? ''}${answer.stdout ?? ''}`)?.[1];
  return version ? majorOf(version) : null;
}

/** "25.0.3" → 25, "1.8.0_402" → 8. */
function majorOf(version: string) {
  const [first = '0', second = '0'] = version.split(/[.+_-]/);
  return first === '1' ? Number(second) : Number(first);
}

/**
 * Every candidate Java home in the order they are tried, each with where it came from.
 */
function candidates(env: NodeJS.ProcessEnv, jvmFolders: readonly string[]): Array<{ home: string; source: string }> {
  const found: Array<{ home: string; source: string }> = [];
  if (env.JAVA_HOME) found.push({ home: env.JAVA_HOME, source: 'JAVA_HOME' });
  const onPathJava = onPath('java', env.PATH ?? '');
  if (onPathJava) found.push({ home: dirname(dirname(realpathSync(onPathJava))), source: 'PATH' });
  for (const folder of jvmFolders) {
    if (!existsSync(folder)) continue;
    for (const entry of readdirSync(folder).sort().reverse()) {
      // macOS keeps the home in <name>.jdk/Contents/Home
      const home = existsSync(join(folder, entry, 'Contents/Home')) ? join(folder, entry, 'Contents/Home') : join(folder, entry);
      found.push({ home, source: folder });
    }
  }
  return found;
}

/** The command (or page) that installs a Java 21+ on this machine. */
function javaInstallHint() {
  if (process.platform === 'darwin') return '`brew install openjdk@21`';
  if (isDebian())
    return "Temurin 21 from Adoptium's apt repository (https://adoptium.net/installation/linux/), then `apt-get install -y temurin-21-jdk` (Debian 13 and Ubuntu 24.04 also have `apt-get install -y openjdk-21-jre-headless`)";
  return 'a Java 21 or newer (https://adoptium.net/)';
}

/**
 * The Java to run Keycloak with: JAVA_HOME, then `java` on PATH, then the JDKs under /usr/lib/jvm, the first
 * whose major version is at least `minimum`. Throws a JavaNotFoundError that lists what was found and
 * says what to install when none is recent enough.
 */
function findJava({
  minimum = 21,
  env = process.env,
  jvmFolders = JVM_FOLDERS,
  purpose = 'Keycloak 26',
}: { minimum?: number; env?: NodeJS.ProcessEnv; jvmFolders?: readonly string[]; purpose?: string } = {}): FoundJava {
  const tooOld: string[] = [];
  const seen = new Set();
  for (const { home, source } of candidates(env, jvmFolders)) {
    const real = existsSync(home) ? realpathSync(home) : home;
    if (seen.has(real)) continue;
    seen.add(real);
    const major = javaMajor(home);
    if (major === null) {
      if (source === 'JAVA_HOME') tooOld.push(`JAVA_HOME=${home} (no bin/java there)`);
      continue;
    }
    if (major >= minimum) return { home, major, source };
    tooOld.push(`${source === 'PATH' || source === 'JAVA_HOME' ? `${source}: ` : ''}${home} (Java ${major})`);
  }
  const found =
    tooOld.length > 0
      ? `Found only: ${tooOld.join(', ')}.`
      : 'No Java found (JAVA_HOME unset, no java on PATH, nothing under /usr/lib/jvm).';
  throw new JavaNotFoundError(
    `${purpose} needs Java ${minimum} or newer. ${found} Install ${javaInstallHint()}, or set JAVA_HOME to a Java ${minimum}+ home.`,
  );
}

export { findJava, javaMajor, JavaNotFoundError };
