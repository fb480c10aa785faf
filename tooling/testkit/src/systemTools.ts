// Where the programs outside node_modules live, and how the preflights install the missing ones: plain Node, no
// dependencies.

import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The first executable called `name` on PATH, or null.
 *
 * @param path the search path (default: this process's PATH)
 */
function onPath(name: string, path: string = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return null;
}

function isExecutable(file: string) {
  try {
    accessSync(file, constants.X_OK);
    return existsSync(file);
  } catch {
    return false;
  }
}

/** Whether this machine installs packages with Debian's apt-get. */
function isDebian() {
  return existsSync('/etc/debian_version') && onPath('apt-get') !== null;
}

/** Whether this process may install system packages itself (root on Debian). */
function canInstallSystemPackages() {
  return isDebian() && isRoot();
}

/** Whether this process runs as root. */
function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** "Debian 12", "Ubuntu 24.04", … for messages; null when unknown. */
function osName() {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The command that installs Debian's `packages` on this machine (`sudo` unless root), or `otherwise` off Debian.
 *
 *
 * @param system the machine (default: this one)
 */
function installCommand(
  packages: readonly string[],
  otherwise: string,
  { debian = isDebian(), root = isRoot() }: { debian?: boolean; root?: boolean } = {},
) {
  return debian ? `${root ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}` : otherwise;
}

export interface AptGet {
  /** whether apt-get can install package `name` here (it has a candidate) */
  available: (name: string) => boolean;
  /** installs `packages`; the step that failed, if any */
  install: (packages: readonly string[]) => string | null;
}

/**
 * apt-get as the preflights run it (as .ci/run does): the package lists updated once (`apt-get update`, before the
 * first look-up or install of this installer), then `apt-get install -y --no-install-recommends <packages>`,
 * non-interactive, quiet but for apt's errors. `apt-get` and `apt-cache` are looked up on `env`'s PATH.
 */
function aptGetInstaller({ env = process.env }: { env?: NodeJS.ProcessEnv } = {}): AptGet {
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  let listsUpdated = false;
  /** @returns the step, if it failed */
  const aptGet = (args: string[]): string | null =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: aptEnv }).status === 0 ? null : `apt-get ${args.join(' ')}`;
  const update = () => {
    if (listsUpdated) return null;
    const failed = aptGet(['update', '-qq']);
    listsUpdated = failed === null;
    return failed;
  };
  return {
    available(name) {
      if (update() !== null) return false;
      const policy = spawnSync('apt-cache', ['policy', name], { encoding: 'utf8', env: aptEnv });
      const candidate = /^\s*Candidate:\s*(\S+)/m.exec(policy.stdout ?? '')?.[1];
      return candidate !== undefined && candidate !== '(none)';
    },
    install(packages) {
      return update() ?? aptGet(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
    },
  };
}

/**
 * A program a command needs from outside node_modules.
 */
export interface ToolRequirement {
  /** what messages call it (`wrk`, `Java 21+`) */
  name: string;
  /** what needs it, and how to leave that out if it can be */
  neededFor: string;
  /**
   * where it is; null when it is missing. Throws, with a message that says what
   * to do, for what no install mends (an NGINX_BIN that names no file)
   */
  find: () => string | null;
  /**
   * what apt-get installs for it: a package, or
   * alternatives of which the first apt-get has is taken. None (or no alternative apt-get has): installed by hand
   */
  debianPackages?: ReadonlyArray<string | readonly string[]>;
  /** the command (or page) that installs it on this machine */
  install: string;
  /** what else does, after the command (`set CHROMIUM_PATH to a Chromium executable`) */
  orElse?: string;
  /** the whole message when it is missing (default: what, why, and the command) */
  missing?: () => string;
}

/**
 * Looks for every tool of `requirements`; when some are missing and this process may install system packages (root
 * on Debian), installs them with one `apt-get install` (after one `apt-get update`) and looks again. What is still
 * missing comes back as one message per tool, naming the command that installs it.
 *
 * @param options `canInstall` defaults
 *   to canInstallSystemPackages(), `apt` to aptGetInstaller()
 * @returns `found`: name → where;
 *   `problems`: empty when every tool is there; `installed`: the packages apt-get installed
 */
function ensureTools(
  requirements: readonly ToolRequirement[],
  {
    canInstall = canInstallSystemPackages(),
    apt,
    log = () => {},
  }: { canInstall?: boolean; apt?: AptGet; log?: (message: string) => void } = {},
): { found: Record<string, string>; problems: string[]; installed: string[] } {
  const look = () => {
    const found: Record<string, string> = {};
    const missing: ToolRequirement[] = [];
    const problems: string[] = [];
    for (const tool of requirements) {
      try {
        const where = tool.find();
        if (where) found[tool.name] = where;
        else missing.push(tool);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    return { found, missing, problems };
  };
  let result = look();
  const installed: string[] = [];
  if (result.missing.length > 0 && canInstall) {
    const aptGet = apt ?? aptGetInstaller();
    const installing: ToolRequirement[] = [];
    for (const tool of result.missing) {
      const packages = (tool.debianPackages ?? []).map((entry) =>
        typeof entry === 'string' ? entry : entry.find((name) => aptGet.available(name)),
      );
      if (packages.length === 0 || packages.some((name) => name === undefined)) continue;
      installing.push(tool);
      for (const name of packages as string[]) if (!installed.includes(name)) installed.push(name);
    }
    if (installed.length > 0) {
      log(`${installing.map((tool) => tool.name).join(', ')} missing; installing with apt-get (${installed.join(' ')}) …`);
      const failed = aptGet.install(installed);
      if (failed) return { found: result.found, problems: [...result.problems, `${failed} failed (its errors are above).`], installed: [] };
      result = look();
    }
  }
  const problems = [
    ...result.problems,
    ...result.missing.map(
      (tool) =>
        tool.missing?.() ??
        `${tool.name} not found: ${tool.neededFor}. Install it with \`${tool.install}\`${tool.orElse ? `, or ${tool.orElse}` : ''}.`,
    ),
  ];
  return { found: result.found, problems, installed };
}

export { onPath, isExecutable, isDebian, canInstallSystemPackages, isRoot, osName, installCommand, aptGetInstaller, ensureTools };
