// What every part of the Keycloak runner shares: the release, this checkout's paths, the administrator, the
// loopback address, the JVM's settings, and the runner's error (decisions/0034).

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The Keycloak release every command runs: one place to change it. */
export const KEYCLOAK_VERSION = '26.7.3';
export const REPO_ROOT = resolve(__dirname, '../../../..');
export const REALM_FILE = join(REPO_ROOT, 'deploy/keycloak/gatehouse-realm.json');
/**
 * The bootstrap administrator of realm `master`. Its password is not `admin`: it is generated once per checkout
 * into ADMIN_PASSWORD_FILE (mode 0600; adminPassword()), so the password grant of `admin-cli` in realm `master`
 * takes nothing anyone could guess, and the test kit (admin.ts) reads it from there.
 */
export const ADMIN_USERNAME = 'admin';
/** Where this checkout's Keycloak administrator password lives (git-ignored, like all of .keycloak/). */
export const ADMIN_PASSWORD_FILE = join(REPO_ROOT, '.keycloak/admin-password');
/** Every Keycloak of this checkout listens on loopback only, as the dev provider does. */
export const LOOPBACK = '127.0.0.1';
/** Bounded so Keycloak fits beside the browser tests; JAVA_OPTS_KC_HEAP in the environment wins. */
export const DEFAULT_HEAP = '-Xms64m -Xmx768m';
/**
 * The JIT's first tier only (C1), for a Keycloak that lives for a few tests (StartOptions.quickStart): a start with
 * an existing database took 7.7 s of CPU instead of 13.6 s, a new one with the realm imported 17.3 instead of 25.8,
 * a cluster node's restart 9.9 instead of 17.2. Not for one that serves a whole run: C1's slower code then costs
 * more than C2's compilations (decisions/0102).
 */
export const QUICK_START = '-XX:TieredStopAtLevel=1';

/** What went wrong, for callers that branch on it. */
export type KeycloakRunnerErrorCode =
  | 'KEYCLOAK_NO_MAVEN'
  | 'KEYCLOAK_DOWNLOAD_FAILED'
  | 'KEYCLOAK_CHECKSUM_MISMATCH'
  | 'KEYCLOAK_PORT_TAKEN'
  | 'KEYCLOAK_EXITED'
  | 'KEYCLOAK_NOT_READY'
  | 'KEYCLOAK_BAD_PROXY_OPTIONS';

/** A failure of the runner, with a stable code and a message that says what to do. */
export class KeycloakRunnerError extends Error {
  readonly code: KeycloakRunnerErrorCode;

  constructor(code: KeycloakRunnerErrorCode, message: string) {
    super(message);
    this.name = 'KeycloakRunnerError';
    this.code = code;
  }
}

export function defaultLog(message: string) {
  process.stderr.write(`[keycloak] ${message}\n`);
}

/**
 * Says every `everyMs` how long `what` has been going on, until the returned function is called.
 */
export function heartbeat(log: (message: string) => void, what: string, everyMs: number = 10_000) {
  const started = Date.now();
  const timer = setInterval(() => log(`${what} (${Math.round((Date.now() - started) / 1000)} s)`), everyMs);
  return () => clearInterval(timer);
}

/** The last `lines` lines of a file, for an error message. */
export function tail(file: string, lines: number = 25) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
