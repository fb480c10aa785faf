'use strict';
// Where the programs outside node_modules live: plain Node, no dependencies (the preflight uses it
// before anything is installed).

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

module.exports = { onPath, isExecutable, isDebian, canInstallSystemPackages, isRoot, osName };
