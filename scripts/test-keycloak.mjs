#!/usr/bin/env node
// `npm run test:keycloak`: the browser suites against a real Keycloak 26 instead of the dev identity provider
// (decisions/0034). Starts Keycloak once (tooling/testkit/src/keycloak.cjs: fetched with Maven, Java 21+,
// the demo realm imported), runs each suite with GATEHOUSE_IDP=keycloak, stops Keycloak, and prints what ran
// on it and how long each part took. `.ci/run` runs it after `npm test`; `npm test` itself needs no Java.
//
//   npm run test:keycloak                 every suite below
//   npm run test:keycloak -- dev auth-lib  only the named ones

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JavaNotFoundError } from '../tooling/testkit/src/java.cjs';
import { KeycloakRunnerError, startKeycloak } from '../tooling/testkit/src/keycloak.cjs';
import { killOnExit } from '../tooling/testkit/src/processes.cjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** @typedef {{ name: string, cwd: string, args: string[], command?: string }} Suite */

/** @type {Suite[]} */
const SUITES = [
  { name: 'dev', cwd: join(ROOT, 'e2e'), args: ['playwright', 'test'] },
  { name: 'production', cwd: join(ROOT, 'e2e'), args: ['playwright', 'test', '-c', 'playwright.production.config.ts'] },
  { name: 'auth-lib', cwd: join(ROOT, 'auth-lib'), args: ['playwright', 'test', '-c', 'test/browser/playwright.config.ts'] },
  // What only Keycloak can show: the realm file's step-up flow, web origins, the frame's /init, brute force, languages.
  { name: 'realm', cwd: join(ROOT, 'e2e'), args: ['playwright', 'test', '-c', 'playwright.keycloak.config.ts'] },
  // The same requests to both providers, compared (dev-idp/README.md, "Measured against Keycloak").
  { name: 'differential', cwd: join(ROOT, 'dev-idp'), command: 'npm', args: ['run', 'test:differential'] },
];

/** @param {string} message */
function say(message) {
  process.stderr.write(`\x1b[1m[test:keycloak] ${message}\x1b[0m\n`);
}

/** @param {number} ms */
function seconds(ms) {
  return `${(ms / 1000).toFixed(0)} s`;
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !SUITES.some((suite) => suite.name === name));
if (unknown.length > 0) {
  console.error(`unknown suite ${unknown.join(', ')}; choose from ${SUITES.map((suite) => suite.name).join(', ')}`);
  process.exit(2);
}
const suites = wanted.length > 0 ? SUITES.filter((suite) => wanted.includes(suite.name)) : SUITES;

/**
 * Runs one suite with its output passed through; resolves to its exit code and Playwright's closing counts
 * ("27 passed", "1 skipped").
 *
 * @param {Suite} suite
 * @param {string} keycloakUrl the running Keycloak (the differential test reads KEYCLOAK_URL)
 * @returns {Promise<{ code: number, counts: string[] }>}
 */
function runSuite(suite, keycloakUrl) {
  const child = spawn(suite.command ?? 'npx', suite.args, {
    cwd: suite.cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, GATEHOUSE_IDP: 'keycloak', KEYCLOAK_URL: keycloakUrl },
  });
  const stopChild = killOnExit(() => [child]);
  /** @type {string[]} */
  const counts = [];
  child.stdout?.on('data', (chunk) => {
    process.stdout.write(chunk);
    for (const line of chunk.toString().split('\n')) {
      const count = /^\s+(\d+ (?:passed|failed|skipped|flaky|did not run|interrupted))\b/.exec(line)?.[1];
      if (count) counts.push(count);
      const nodeCount = /^ℹ (pass|fail|skipped) (\d+)/.exec(line);
      if (nodeCount) counts.push(`${nodeCount[2]} ${{ pass: 'passed', fail: 'failed', skipped: 'skipped' }[nodeCount[1] ?? 'pass']}`);
    }
  });
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      stopChild();
      resolve({ code: code ?? (signal ? 1 : 0), counts });
    });
  });
}

/** @type {import('../tooling/testkit/src/keycloak.cjs').RunningKeycloak} */
let keycloak;
const began = Date.now();
try {
  keycloak = await startKeycloak();
} catch (error) {
  if (error instanceof KeycloakRunnerError || error instanceof JavaNotFoundError) {
    process.stderr.write(`\n[test:keycloak] ${error.message}\n\n`);
    process.exit(1);
  }
  throw error;
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.on(signal, () => void keycloak.stop().then(() => process.exit(130)));

/** @type {string[]} */
const summary = [
  `Keycloak: ready in ${seconds(Date.now() - began)} (${keycloak.freshImport ? 'new database, realm imported' : 'existing database'})`,
];
let failed = false;
for (const suite of suites) {
  say(`${suite.name} suite against Keycloak (${suite.args.join(' ')})`);
  const started = Date.now();
  const { code, counts } = await runSuite(suite, keycloak.url);
  if (code !== 0) failed = true;
  summary.push(
    `${suite.name}: ${counts.join(', ') || 'no result line'} in ${seconds(Date.now() - started)}${code === 0 ? '' : ` (exit code ${code})`}`,
  );
}
await keycloak.stop();
summary.push(`total: ${seconds(Date.now() - began)}`);
say(`against Keycloak ${failed ? 'FAILED' : 'passed'}:\n  ${summary.join('\n  ')}`);
process.exit(failed ? 1 : 0);
