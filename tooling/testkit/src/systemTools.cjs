'use strict';
// Where the programs outside node_modules live, and how the preflights install the missing ones: plain Node, no
// dependencies (the preflight uses it before anything is installed).

const { spawnSync } = require('node:child_process');
const { accessSync, constants, existsSync, readFileSync } = require('node:fs');
const { delimiter, join } = require('node:path');

/**
 * The first executable called `name` on PATH, or null.
 *
 * @param {string} name @param {string} [path] the search path (default: this process's PATH)
 * @returns {string | null}
 */
function onPath(name, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** @param {string} file */
function isExecutable(file) {
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
 * @param {readonly string[]} packages @param {string} otherwise
 * @param {{ debian?: boolean, root?: boolean }} [system] the machine (default: this one)
 */
function installCommand(packages, otherwise, { debian = isDebian(), root = isRoot() } = {}) {
  return debian ? `${root ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}` : otherwise;
}

/**
 * @typedef {object} AptGet
 * @property {(name: string) => boolean} available whether apt-get can install package `name` here (it has a candidate)
 * @property {(packages: readonly string[]) => string | null} install installs `packages`; the step that failed, if any
 */

/**
 * apt-get as the preflights run it (as .ci/run does): the package lists updated once (`apt-get update`, before the
 * first look-up or install of this installer), then `apt-get install -y --no-install-recommends <packages>`,
 * non-interactive, quiet but for apt's errors. `apt-get` and `apt-cache` are looked up on `env`'s PATH.
 *
 * @param {{ env?: NodeJS.ProcessEnv }} [options]
 * @returns {AptGet}
 */
function aptGetInstaller({ env = process.env } = {}) {
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  let listsUpdated = false;
  /** @param {string[]} args @returns {string | null} the step, if it failed */
  const aptGet = (args) =>
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
 *
 * @typedef {object} ToolRequirement
 * @property {string} name what messages call it (`wrk`, `Java 21+`)
 * @property {string} neededFor what needs it, and how to leave that out if it can be
 * @property {() => string | null} find where it is; null when it is missing. Throws, with a message that says what
 *   to do, for what no install mends (an NGINX_BIN that names no file)
 * @property {ReadonlyArray<string | readonly string[]>} [debianPackages] what apt-get installs for it: a package, or
 *   alternatives of which the first apt-get has is taken. None (or no alternative apt-get has): installed by hand
 * @property {string} install the command (or page) that installs it on this machine
 * @property {string} [orElse] what else does, after the command (`set CHROMIUM_PATH to a Chromium executable`)
 * @property {() => string} [missing] the whole message when it is missing (default: what, why, and the command)
 */

/**
 * Looks for every tool of `requirements`; when some are missing and this process may install system packages (root
 * on Debian), installs them with one `apt-get install` (after one `apt-get update`) and looks again. What is still
 * missing comes back as one message per tool, naming the command that installs it.
 *
 * @param {readonly ToolRequirement[]} requirements
 * @param {{ canInstall?: boolean, apt?: AptGet, log?: (message: string) => void }} [options] `canInstall` defaults
 *   to canInstallSystemPackages(), `apt` to aptGetInstaller()
 * @returns {{ found: Record<string, string>, problems: string[], installed: string[] }} `found`: name → where;
 *   `problems`: empty when every tool is there; `installed`: the packages apt-get installed
 */
function ensureTools(requirements, { canInstall = canInstallSystemPackages(), apt, log = () => {} } = {}) {
  const look = () => {
    /** @type {Record<string, string>} */
    const found = {};
    /** @type {ToolRequirement[]} */
    const missing = [];
    /** @type {string[]} */
    const problems = [];
    for (const tool of requirements) {
      try {
        const where = tool.find();
        if (where) found[tool.name] = where;
        else missing.push(tool);
      } catch (error) {
        problems.push(/** @type {Error} */ (error).message);
      }
    }
    return { found, missing, problems };
  };
  let result = look();
  /** @type {string[]} */
  const installed = [];
  if (result.missing.length > 0 && canInstall) {
    const aptGet = apt ?? aptGetInstaller();
    /** @type {ToolRequirement[]} */
    const installing = [];
    for (const tool of result.missing) {
      const packages = (tool.debianPackages ?? []).map((entry) =>
        typeof entry === 'string' ? entry : entry.find((name) => aptGet.available(name)),
      );
      if (packages.length === 0 || packages.some((name) => name === undefined)) continue;
      installing.push(tool);
      for (const name of /** @type {string[]} */ (packages)) if (!installed.includes(name)) installed.push(name);
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

module.exports = {
  onPath,
  isExecutable,
  isDebian,
  canInstallSystemPackages,
  isRoot,
  osName,
  installCommand,
  aptGetInstaller,
  ensureTools,
};
