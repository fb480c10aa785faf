// The sign-in keys on a real Keycloak: the same cold loads as on the dev identity provider, with
// Keycloak 26 (tooling/testkit's runner, the one `npm run keycloak` uses) answering on the provider's port of the
// bench topology (8180), so Gatehouse's builds and the baseline's (which names http://localhost:8180) reach it
// unchanged. Its distribution comes from the Maven cache (`npm run keycloak -- --download-only` fetches it); its
// home and database live in bench/.work/keycloak, the bench's realm imported into a new database the first time.
// One start serves this stage and the provider cost after it (startBenchKeycloak; bench/run.mjs stops it at the end).

import { join } from 'node:path';
import { startKeycloak } from '@gatehouse/testkit/keycloak';
import { authOverheadMs } from './overhead.mjs';
import { alternatingLoads, BASELINE, remoteLoad, secondTabLoads, signIn } from './measure.mjs';
import { PORTS } from './topology.mjs';
import { round, summarize } from './stats.mjs';

/** @typedef {import('./browser.mjs').Browser} Browser */
/** @typedef {import('./stats.mjs').Summary} Summary */
/** @typedef {import('./profiles.mjs').Profile} Profile */
/** @typedef {Awaited<ReturnType<typeof startKeycloak>>} Keycloak */

/** The realm the bench's pages sign in to (bench/lib/topology.mjs' benchRealm). */
export const BENCH_REALM = 'gatehouse';

/**
 * Keycloak 26.7 on the bench's provider port with the bench's realm (`realmFile`: benchRealm's JSON), its home and
 * database in `<workDir>/keycloak`, and an access log that names each request's user agent (the provider cost
 * checks the browser's count against it). One start serves the Keycloak stage and the provider cost.
 *
 * @param {{ workDir: string, realmFile: string, log: (message: string) => void }} options
 * @returns {Promise<Keycloak>}
 */
export function startBenchKeycloak({ workDir, realmFile, log }) {
  const dir = join(workDir, 'keycloak');
  return startKeycloak({
    dir,
    realmFile,
    realm: BENCH_REALM,
    httpPort: PORTS.identityProvider,
    managementPort: PORTS.identityProvider + 1000,
    adminPasswordFile: join(dir, 'admin-password'),
    log: (message) => log(`keycloak: ${message}`),
    env: {
      ...process.env,
      KC_HTTP_ACCESS_LOG_ENABLED: 'true',
      KC_HTTP_ACCESS_LOG_PATTERN: '%t "%r" %s "%{i,User-Agent}"',
    },
  });
}

/** The keys this stage writes: each sign-in key of the dev provider's run, on Keycloak. */
export const KEYCLOAK_KEYS = /** @type {const} */ ([
  'time_to_public_visible_keycloak_ms',
  'time_to_remote_visible_keycloak_ms',
  'time_to_remote_visible_second_tab_keycloak_ms',
  'auth_overhead_keycloak_ms',
]);
/** @typedef {(typeof KEYCLOAK_KEYS)[number]} KeycloakKey */

/**
 * One setup's figures on Keycloak, in every profile measured: KEYCLOAK_KEYS, each with the profile's suffix
 * (bench/lib/profiles.mjs: none for `fast`).
 *
 * @typedef {{ values: Record<string, number>, spread: Record<string, Summary> }} KeycloakFigures
 */

/** @param {readonly number[]} values @returns {Summary} */
function spreadOf(values) {
  const s = summarize(values);
  return { median: round(s.median, 0), min: round(s.min, 0), max: round(s.max, 0), n: s.n };
}

/**
 * Adds one profile's figures to `target` (keys with the profile's suffix).
 *
 * @param {KeycloakFigures} target @param {string} suffix @param {number[]} pub @param {number[]} rem @param {number[]} second
 */
function addFigures(target, suffix, pub, rem, second) {
  const [p, r, s] = [spreadOf(pub), spreadOf(rem), spreadOf(second)];
  /** @type {Record<KeycloakKey, number>} */
  const values = {
    time_to_public_visible_keycloak_ms: p.median,
    time_to_remote_visible_keycloak_ms: r.median,
    time_to_remote_visible_second_tab_keycloak_ms: s.median,
    auth_overhead_keycloak_ms: authOverheadMs(p, r),
  };
  /** @type {Partial<Record<KeycloakKey, Summary>>} */
  const spread = {
    time_to_public_visible_keycloak_ms: p,
    time_to_remote_visible_keycloak_ms: r,
    time_to_remote_visible_second_tab_keycloak_ms: s,
  };
  for (const [key, value] of Object.entries(values)) target.values[`${key}${suffix}`] = value;
  for (const [key, summary] of Object.entries(spread)) target.spread[`${key}${suffix}`] = summary;
}

/**
 * With Keycloak in the dev provider's place on the same port (startBenchKeycloak, once the topology's dev provider
 * is stopped), signs alice in through Keycloak's login page, and per profile (bench/lib/profiles.mjs, in order) takes
 * `loads` alternating cold loads (the baseline's pair, then Gatehouse's, as on the dev provider), then `loads` second
 * tabs of each. Keycloak keeps running (the caller stops it).
 *
 * @param {object} options
 * @param {Browser} options.browser
 * @param {Keycloak} options.keycloak
 * @param {number} options.loads
 * @param {(message: string) => void} options.log
 * @param {readonly Profile[]} options.profiles
 * @returns {Promise<{ gatehouse: KeycloakFigures, baseline: KeycloakFigures, startedInMs: number, version: string }>}
 */
export async function measureOnKeycloak({ browser, keycloak, loads, log, profiles }) {
  log(`keycloak: ready in ${round(keycloak.startedInMs / 1000, 1)} s${keycloak.freshImport ? ' (realm imported)' : ''}`);
  const session = await signIn(browser);
  // warm Keycloak (its first answers compile templates and load the realm's keys), then both setups' pages
  await remoteLoad(browser, session);
  await remoteLoad(browser, session, { origins: BASELINE });
  /** @type {KeycloakFigures} */
  const gatehouse = { values: {}, spread: {} };
  /** @type {KeycloakFigures} */
  const baseline = { values: {}, spread: {} };
  for (const { suffix, cpuRate, name } of profiles) {
    const times = await alternatingLoads(browser, session, loads, cpuRate);
    const second = await secondTabLoads(browser, session, loads, undefined, [], cpuRate);
    const baseSecond = await secondTabLoads(browser, session, loads, BASELINE, [], cpuRate);
    addFigures(gatehouse, suffix, times.gatehouse.pub, times.gatehouse.rem, second);
    addFigures(baseline, suffix, times.baseline.pub, times.baseline.rem, baseSecond);
    const at = (/** @type {KeycloakFigures} */ f, /** @type {KeycloakKey} */ key) => f.values[`${key}${suffix}`];
    log(
      `keycloak (${name}): public ${at(gatehouse, 'time_to_public_visible_keycloak_ms')} ms, remote ${at(gatehouse, 'time_to_remote_visible_keycloak_ms')} ms ` +
        `(baseline ${at(baseline, 'time_to_public_visible_keycloak_ms')}, ${at(baseline, 'time_to_remote_visible_keycloak_ms')})`,
    );
  }
  return { gatehouse, baseline, startedInMs: keycloak.startedInMs, version: keycloak.home.split('-').pop() ?? '' };
}
