#!/usr/bin/env node
// `npm run keycloak`: a real Keycloak 26 with the demo realm on :8080 (health on :9000), fetched with Maven the
// first time (its SHA-512 checked) and run from .keycloak/ (git-ignored), every port on loopback, until Ctrl-C. The
// bootstrap administrator is `admin` with a password generated once into .keycloak/admin-password (mode 0600).
// What it does and why: tooling/testkit/src/keycloak.ts (and keycloak/) and decisions/0034.
//
//   npm run keycloak                    Keycloak's own log in this terminal
//   npm run keycloak -- --quiet         only progress; Keycloak's log goes to .keycloak/keycloak.log
//   npm run keycloak -- --download-only fetch and unpack it into .keycloak/ and stop (no port needed: also while
//                                       `npm start` holds 8080, or before going offline)

import { fileURLToPath } from 'node:url';
// testkit as plain Node runs it, compiled (tooling/testkit/dist): the root script `keycloak` builds it first when a
// testkit source is newer than the build (decisions/0113); then Keycloak needs only Java and Maven
import { KeycloakRunnerError, KEYCLOAK_VERSION, obtainKeycloak, startKeycloak } from '@gatehouse/testkit/keycloak';
import { JavaNotFoundError } from '@gatehouse/testkit/java';
import { REALM_OVERLAY, applyRealmOverlay } from '@gatehouse/testkit/realm-overlay';

const USAGE = 'usage: npm run keycloak [-- --quiet | --download-only]';
const args = process.argv.slice(2);
const unknown = args.find((arg) => arg !== '--quiet' && arg !== '--download-only');
if (unknown) {
  console.error(`unknown option ${unknown}\n${USAGE}`);
  process.exit(2);
}

/** @param {unknown} error @returns {never} */
function stopWith(error) {
  if (error instanceof KeycloakRunnerError || error instanceof JavaNotFoundError) {
    const hint =
      error instanceof KeycloakRunnerError && error.code === 'KEYCLOAK_PORT_TAKEN'
        ? '\n(To fetch Keycloak now and start it later: `npm run keycloak -- --download-only`, which needs no port.)'
        : '';
    process.stderr.write(`\n[keycloak] ${error.message}${hint}\n\n`);
    process.exit(1);
  }
  throw error;
}

if (args.includes('--download-only')) {
  const dir = fileURLToPath(new URL('../.keycloak', import.meta.url));
  try {
    const home = await obtainKeycloak({ dir, log: (message) => console.log(`[keycloak] ${message}`) });
    console.log(`[keycloak] Keycloak ${KEYCLOAK_VERSION} is in ${home}; \`npm run keycloak\` starts it.`);
    process.exit(0);
  } catch (error) {
    stopWith(error);
  }
}

/** @type {import('@gatehouse/testkit/keycloak').RunningKeycloak | undefined} */
let keycloak;
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  // While it starts, exiting is enough: the runner kills the server's process group when this process exits.
  await keycloak?.stop();
  process.exit(keycloak ? 0 : 130);
};
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.on(signal, () => void stop());

try {
  keycloak = await startKeycloak({ output: args.includes('--quiet') ? 'file' : 'inherit' });
} catch (error) {
  stopWith(error);
}

// The dev provider reads this checkout's realm overlay itself; Keycloak gets its addresses through the admin API.
try {
  const added = await applyRealmOverlay(keycloak.url, keycloak.admin);
  if (added.length > 0) console.log(`[keycloak] from ${REALM_OVERLAY}: added ${added.join(', ')}`);
} catch (error) {
  process.stderr.write(`[keycloak] the realm overlay was not applied: ${error instanceof Error ? error.message : String(error)}\n`);
}

if (!args.includes('--quiet'))
  console.log(`
  Keycloak is running.

    Keycloak           ${keycloak.url}   (realm "gatehouse"; admin console ${keycloak.url}/admin/ as ${keycloak.admin.username}, password in ${keycloak.admin.passwordFile})
    health             ${keycloak.healthUrl}

  The apps on it: \`npm start -- --idp keycloak\` (dev) or \`npm run build && npm run preview\` (production builds).
  Press Ctrl-C to stop it.
`);

const { code, signal } = await keycloak.exited;
if (!stopping) {
  console.error(`Keycloak stopped (${signal ?? `exit code ${code}`}).`);
  process.exit(1);
}
