// Every test suite of the repository, in one place: what `npm test` runs (scripts/test.mjs) and what
// `npm run test:keycloak` runs against a real Keycloak (scripts/test-keycloak.mjs), each with its folder, command,
// lane and whether it tests the production builds. Each package's own `npm test` still runs its tests alone; e2e's
// runs its suites through scripts/test.mjs. CONTRIBUTING.md says which suite covers what.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const E2E = join(ROOT, 'e2e');

/**
 * A suite of `npm test`.
 * `lane`: 'fixed' (the default), 'units' or 'browsers'. A suite may be outside the fixed lane only when it uses no
 *   fixed port (:3000–3003, :3010, :4000–4003, :4010, :8080, :9000) and writes no file a suite of another lane writes.
 * `builds`: the suite tests the production builds (made once, before the lanes start).
 * `unit`: a workspace's unit tests (no browser, no server on a fixed port): what `npm run test:unit` runs.
 * @typedef {{ name: string, cwd: string, args: string[], command?: string, lane?: 'fixed' | 'units' | 'browsers',
 *             builds?: boolean, unit?: boolean }} Suite
 */

/**
 * The workspaces' test scripts that `npm test` splits into a unit part (run in the unit step) and browser or e2e
 * suites (run as suites of their own below). Every other workspace's `npm test` runs whole, as its unit tests.
 * @type {Record<string, string | null>} workspace → the script with its unit tests (null: none)
 */
const SPLIT = {
  'auth-lib': 'test:unit',
  'dev-idp': 'test:node',
  e2e: null,
};

/** Each workspace with a test script, in the root package.json's order: its unit tests as one suite. */
function unitSuites() {
  /** @type {string[]} */
  const workspaces = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces;
  const found = spawnSync('npm', ['query', '.workspace'], { cwd: ROOT, encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`npm query .workspace failed: ${found.stderr}`);
  /** @type {Array<{ location: string, scripts?: Record<string, string> }>} */
  const packages = JSON.parse(found.stdout);
  // npm query lists the installed tree: none there means no unit test would run, which must not pass as a green run
  if (packages.length === 0)
    throw new Error('npm query .workspace found no workspace: node_modules is not installed. Run `npm ci`, then `npm test` again.');
  const rank = (/** @type {string} */ location) =>
    workspaces.findIndex((pattern) => (pattern.endsWith('/*') ? location.startsWith(pattern.slice(0, -1)) : location === pattern));
  return packages
    .filter((pkg) => pkg.scripts?.test)
    .sort((a, b) => rank(a.location) - rank(b.location))
    .flatMap((pkg) => {
      const script = pkg.location in SPLIT ? SPLIT[pkg.location] : 'test';
      if (!script) return [];
      const name = pkg.location.replace(/^(tooling|remotes)\//, '');
      return [
        /** @type {Suite} */ ({ name, cwd: join(ROOT, pkg.location), command: 'npm', args: ['run', script], lane: 'units', unit: true }),
      ];
    });
}

/**
 * The suites of `npm test`, in order: the browser and end-to-end suites around each workspace's unit tests. Lists
 * the installed workspaces (`npm query`), so it is called after the preflight has installed them.
 *
 * @returns {Suite[]}
 */
export function npmTestSuites() {
  return [
    // The system as `npm start` runs it: the dev servers on :3000–3003, the provider on :8080.
    { name: 'dev', cwd: E2E, args: ['playwright', 'test'] },
    // The builds behind nginx on :4000–4003, the provider on :8080.
    { name: 'production', cwd: E2E, args: ['playwright', 'test', '-c', 'playwright.production.config.ts'], builds: true },
    ...unitSuites(),
    // A provider per worker and a page server, each on a free port; results in dev-idp/test-results.
    { name: 'dev-idp-browser', cwd: join(ROOT, 'dev-idp'), command: 'npm', args: ['run', 'test:browser'], lane: 'browsers' },
    // A dev provider per worker and a page server per test, each on a free port; results in auth-lib/test/browser/test-results.
    { name: 'auth-lib-browser', cwd: join(ROOT, 'auth-lib'), command: 'npm', args: ['run', 'test:browser'], lane: 'browsers' },
    // nginx and a provider per topology on free ports; results in .preview/https-results.
    { name: 'https', cwd: E2E, args: ['playwright', 'test', '-c', 'playwright.https.config.ts'], lane: 'browsers', builds: true },
    // A fresh clone's `npm run build` and `npm run preview` on the README's ports (:4000–4003, :4010, :8080), installs
    // from the network.
    {
      name: 'fresh-clone',
      cwd: E2E,
      args: ['playwright', 'test', '-c', 'playwright.registry.config.ts', 'fresh-clone', '--output', '../.preview/fresh-clone-results'],
      builds: true,
    },
    // Verdaccio and a production shell on free ports, installs from the network; no browser. After the unit tests, in
    // their lane: it packs the packages as the production suite does (each `prepack` empties and rebuilds a package's
    // dist/), and scripts/packages.mjs has one pack wait for the other.
    {
      name: 'registry',
      cwd: E2E,
      args: ['playwright', 'test', '-c', 'playwright.registry.config.ts', 'remote-installs', '--output', '../.preview/registry-results'],
      lane: 'units',
      builds: true,
    },
  ];
}

/**
 * A suite of `npm run test:keycloak`.
 * `ownKeycloak`: the suite starts the Keycloaks it needs itself (not the one on :8080).
 * `lane`: the suites of one lane run one after the other, lanes side by side (default: the first lane). A suite may
 *   have a lane of its own only when it uses no fixed port but the shared Keycloak's (:8080, :9000) and writes no
 *   file another suite writes.
 * `builds`: the suite tests the production builds (made before the lanes start, so two lanes never make them at once).
 * `optIn`: runs only when named, never in the default set.
 * @typedef {{ name: string, cwd: string, args: string[], command?: string, ownKeycloak?: boolean, lane?: string,
 *             builds?: boolean, optIn?: boolean }} KeycloakSuite
 */

/**
 * The tag of the tests whose assertions depend on the identity provider (sign-in, sessions, refresh, sign-out,
 * step-up, token contents, account and user-info); in the dev and production suites only these run on Keycloak.
 * The rest (headers, CSP, remote failures, builds and installs) proved what they prove in `npm test`.
 */
const IDP_TAG = '@idp';

/** The suites of `npm run test:keycloak`, in order. @type {KeycloakSuite[]} */
export const KEYCLOAK_SUITES = [
  // The dev system, its dev servers started once for two projects: `dev`, the dev suite's tests tagged @idp, and
  // `realm`, what only Keycloak shows of the realm file (its step-up flow, web origins, the frame's /init, brute
  // force, languages, test realms' keys). `npm run test:keycloak -- dev -- --project realm` runs the latter alone.
  { name: 'dev', cwd: E2E, args: ['playwright', 'test', '-c', 'playwright.keycloak.config.ts'] },
  {
    name: 'production',
    cwd: E2E,
    args: ['playwright', 'test', '-c', 'playwright.production.config.ts', '--grep', IDP_TAG],
    builds: true,
  },
  // In the first lane, after the dev suite has warmed Keycloak up: in a lane of its own (its page server on a free
  // port, a realm per test) its first test met a cold Keycloak beside the dev servers' and the HTTPS suite's
  // start-ups and ran out of its 60 s, twice (decisions/0080).
  { name: 'auth-lib', cwd: join(ROOT, 'auth-lib'), args: ['playwright', 'test', '-c', 'test/browser/playwright.config.ts'] },
  // The same requests to both providers, compared (dev-idp/README.md, "Measured against Keycloak").
  { name: 'differential', cwd: join(ROOT, 'dev-idp'), command: 'npm', args: ['run', 'test:differential'] },
  // The HTTPS suite with Keycloak behind its TLS nginx: its fixtures start one Keycloak per topology with
  // --hostname <the topology's public URL, on the suite's free port> and --proxy-headers xforwarded (and
  // --http-relative-path /auth for the proxied one), from homes of their own (.keycloak/https*), nginx on a free
  // port, results in .preview/https-results (with --serial last, after the Keycloak on :8080 stopped).
  {
    name: 'https',
    cwd: E2E,
    args: ['playwright', 'test', '-c', 'playwright.https.config.ts'],
    ownKeycloak: true,
    lane: 'https',
    builds: true,
  },
  // Open pages through a Keycloak cluster's failures and restarts (decisions/0095): two nodes in production mode
  // on a throwaway PostgreSQL (Debian's postgresql), behind nginx, started by the suite (.keycloak/cluster-a, -b).
  // Its load balancer, shell and remotes are on free ports, its results in .preview/cluster-results, so it may run
  // beside the first lane: after the HTTPS suite, in its lane, not in a third one (three lanes at once made the
  // auth-lib suite's first tests run out of time beside Keycloak start-ups, decisions/0080; the cluster's are the
  // heaviest: two nodes and six restarts).
  {
    name: 'cluster',
    cwd: E2E,
    args: ['playwright', 'test', '-c', 'playwright.cluster.config.ts'],
    ownKeycloak: true,
    lane: 'https',
    builds: true,
  },
];
