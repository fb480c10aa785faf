#!/usr/bin/env node
// `npm run registry:publisher -- --registry <url>`: the publisher's npm login to a private registry, without
// prompts (CI, a provisioning script): registers the user on a registry that still accepts one (Verdaccio's
// htpasswd with `max_users`, deploy/verdaccio/config.yaml), or logs it in when it exists, and writes the token to
// the npm user config (or --userconfig <file>) for that registry only. The token is never printed.
//
//   npm run registry:publisher -- --registry http://npm.internal:4873/ [--user gatehouse-publisher] [--userconfig <file>]
//
// The password comes from GATEHOUSE_PUBLISHER_PASSWORD (keep it in the CI's secrets); without it a random one is
// made for a first registration (the token is what npm needs from then on). npm's own `npm login` asks on a
// terminal; this is the same legacy login request (PUT /-/user/org.couchdb.user:<name>) that Verdaccio and
// Artifactory's npm registries answer.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

const USAGE = 'usage: npm run registry:publisher -- --registry <url> [--user <name>] [--userconfig <file>]';

/** @param {string} message @returns {never} */
function fail(message, code = 1) {
  process.stderr.write(`[registry] ${message}\n`);
  process.exit(code);
}

/** @param {readonly string[]} argv */
function parse(argv) {
  /** @type {Record<string, string>} */
  const options = { '--user': 'gatehouse-publisher' };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i] ?? '', argv[i + 1]];
    if (!['--registry', '--user', '--userconfig'].includes(flag) || value === undefined)
      fail(`unknown or incomplete option ${flag}\n${USAGE}`, 2);
    options[flag] = value;
  }
  if (!options['--registry'] || !/^https?:\/\//.test(options['--registry'])) fail(`--registry <url> is needed\n${USAGE}`, 2);
  return options;
}

const options = parse(process.argv.slice(2));
const registry = new URL(/** @type {string} */ (options['--registry']));
if (!registry.pathname.endsWith('/')) registry.pathname += '/';
const user = /** @type {string} */ (options['--user']);
const password = process.env.GATEHOUSE_PUBLISHER_PASSWORD || randomBytes(18).toString('base64url');

let response;
try {
  response = await fetch(new URL(`-/user/org.couchdb.user:${encodeURIComponent(user)}`, registry), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ _id: `org.couchdb.user:${user}`, name: user, password, type: 'user', roles: [] }),
    signal: AbortSignal.timeout(15_000),
  });
} catch (error) {
  fail(
    `${registry.href} did not answer (${error instanceof Error ? error.message : String(error)}). Is the registry running at that address?`,
  );
}
/** @type {{ token?: string, error?: string, reason?: string }} */
const body = await response.json().catch(() => ({}));
if (!response.ok || !body.token) {
  const said = body.error ?? body.reason ?? '';
  fail(
    `${registry.href} refused the publisher "${user}" (HTTP ${response.status}${said ? `: ${said}` : ''}). ` +
      (process.env.GATEHOUSE_PUBLISHER_PASSWORD
        ? 'Check GATEHOUSE_PUBLISHER_PASSWORD, or that the registry lets this user register (Verdaccio: max_users).'
        : `The user exists already or registration is closed (Verdaccio: max_users): set GATEHOUSE_PUBLISHER_PASSWORD to "${user}"'s password.`),
  );
}

// `//host/path/:_authToken`: npm sends the token to this registry only.
const key = `//${registry.host}${registry.pathname}:_authToken`;
const where = options['--userconfig']
  ? ['--userconfig', resolve(process.env.INIT_CWD ?? process.cwd(), options['--userconfig'])]
  : ['--location', 'user'];
const set = spawnSync('npm', ['config', 'set', `${key}=${body.token}`, ...where], { stdio: ['ignore', 'ignore', 'inherit'] });
if (set.status !== 0) fail('npm config set failed (its output is above).');
process.stderr.write(
  `[registry] "${user}" is logged in to ${registry.href}: its token is in ${options['--userconfig'] ?? 'your npm user config'}. ` +
    `Publish with \`npm run publish:packages -- --registry ${registry.href}${options['--userconfig'] ? ` --userconfig ${options['--userconfig']}` : ''}\`.\n`,
);
