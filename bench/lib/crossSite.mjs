// The sign-in keys where users are: the HTTPS topology of the browser suites (e2e/https/support:
// nginx over TLS with the deployment's rendered server blocks, every app and the provider on a host of its own,
// Chromium resolving *.test to loopback and accepting the throwaway CA's leaf), with the provider on another site
// than the shell's (third-party cookies allowed, then blocked in the browser profile) and on the shell's site.
// The bench's builds are served there (the shell reads its provider from config.json; the baseline names it at
// build time, so it is built once more per topology with that topology's addresses), and both setups are measured
// by the same functions, their loads alternating, as on http://localhost.
//
// Times here are wall-clock: from the moment the bench asks for the page to the heading painted (the page's
// Element Timing plus its timeOrigin), so a sign-in check that leaves the page for the provider and comes back (a
// full-page round trip, as with third-party cookies blocked) is counted whole; the page's own clock starts again
// at the last document.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumLaunchOptions } from '@gatehouse/testkit/chromium';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { createTestCa } from '@gatehouse/testkit/tls';
import { paintRecorder } from './browser.mjs';
import { throttleContext, throttlePage } from './profiles.mjs';
import { BASELINE_APPS, buildApp } from './build.mjs';
import { round, summarize } from './stats.mjs';
import { BASELINE_WITHOUT_DPOP } from './topology.mjs';

/** @typedef {import('./stats.mjs').Summary} Summary */
/** @typedef {import('./profiles.mjs').Profile} Profile */
/** @typedef {import('playwright-core').BrowserContext} BrowserContext */
/** @typedef {import('playwright-core').Page} Page */
/** @typedef {Awaited<ReturnType<BrowserContext['cookies']>>} Cookies */
/**
 * What this module uses of e2e/https/support/topology.ts's running topology (a TypeScript module, loaded through tsx).
 *
 * @typedef {{ port: number, shell: string, identityProvider: string, identityProviderUpstream: string, stop(): Promise<void> }} HttpsTopology
 */
/**
 * @typedef {{
 *   startHttpsTopology(site: 'cross-site' | 'same-site', options: {
 *     roots: { shell: string, remotes: Record<string, string> },
 *     extraServers: (port: number, listen: string, tls: readonly string[]) => string,
 *   }): Promise<HttpsTopology>,
 * }} TopologyModule
 */

// The browser suites' modules, as they are (no copy of the topology): TypeScript, loaded through tsx.
const TOPOLOGY_MODULE = new URL('../../e2e/https/support/topology.ts', import.meta.url).href;
const SITES_MODULE = new URL('../../e2e/https/support/sites.ts', import.meta.url).href;

/** The baseline's two apps in the HTTPS topologies: the host on the shell's site, the remote on the CDN's. */
const BASELINE_HOSTS = { host: 'baseline.gatehouse.test', remote: 'baseline-remote.gatehouse-cdn.test' };

/**
 * The three topologies and the key suffix of each: where the provider is and what the browser profile does with
 * third-party cookies. On the shell's site the provider's cookies are not third-party, so it is measured with them
 * blocked, the setting it is chosen for.
 *
 * @type {ReadonlyArray<{ suffix: string, site: 'cross-site' | 'same-site', cookies: 'allowed' | 'blocked' }>}
 */
export const VARIANTS = [
  { suffix: 'cross_site_allowed', site: 'cross-site', cookies: 'allowed' },
  { suffix: 'cross_site_blocked', site: 'cross-site', cookies: 'blocked' },
  { suffix: 'same_site', site: 'same-site', cookies: 'blocked' },
];

/** The keys this stage writes, for each variant: a cold load of /profile signed in at the provider, and a reload of it. */
export const CROSS_SITE_KEYS = VARIANTS.flatMap(({ suffix }) => [`time_to_remote_visible_${suffix}_ms`, `reload_signed_in_${suffix}_ms`]);

/** `profile.cookie_controls_mode` of Chromium's Preferences (as e2e/https/support/fixtures.ts sets it). */
const COOKIE_CONTROLS_MODE = { allowed: 0, blocked: 1 };
const PROFILE_HEADING = 'profile-heading';

/** @param {readonly number[]} values @returns {Summary} */
function spreadOf(values) {
  const s = summarize(values);
  return { median: round(s.median, 0), min: round(s.min, 0), max: round(s.max, 0), n: s.n };
}

/**
 * A fresh browser profile with the variant's third-party-cookie mode (a persistent context: Preferences are read
 * at launch), the provider's session cookies in it, cache disabled; `cpuRate`: the device profile's CPU slow-down
 * (bench/lib/profiles.mjs), set on the tab, its out-of-process frames (the provider's) and any other page it opens.
 *
 * @param {{ profiles: string, spki: string, cookies: 'allowed' | 'blocked', session: Cookies, cpuRate?: number }} options
 */
async function freshProfile({ profiles, spki, cookies, session, cpuRate = 1 }) {
  const dir = join(profiles, `${Date.now()}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(dir, 'Default'), { recursive: true });
  writeFileSync(join(dir, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: COOKIE_CONTROLS_MODE[cookies] } }));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumLaunchOptions({ needs: 'browser' }).executablePath,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP *.test 127.0.0.1', `--ignore-certificate-errors-spki-list=${spki}`],
  });
  if (session.length > 0) await context.addCookies(session);
  throttleContext(context, cpuRate);
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await throttlePage(page, cpuRate, cdp);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(paintRecorder);
  const close = async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { context, page, close };
}

/**
 * Ms from `startedAt` (epoch ms, this machine's clock) until the profile heading of the page's current document
 * has painted: its Element Timing entry on the document's clock plus the document's timeOrigin.
 *
 * @param {Page} page @param {number} startedAt
 */
async function msUntilProfilePainted(page, startedAt) {
  const handle = await page.waitForFunction(
    (id) => {
      const paints = /** @type {Window & { __benchPaints?: { elements: Record<string, number> } }} */ (window).__benchPaints;
      const at = paints?.elements[id];
      return at === undefined ? null : performance.timeOrigin + at;
    },
    PROFILE_HEADING,
    { timeout: 60_000, polling: 50 },
  );
  return /** @type {number} */ (await handle.jsonValue()) - startedAt;
}

/**
 * Signs alice in through the provider's login form in a profile of the variant; returns the provider's cookies.
 *
 * @param {{ profiles: string, spki: string, cookies: 'allowed' | 'blocked' }} profile
 * @param {string} shell the origin of the page to sign in from
 * @param {string} identityProvider
 */
async function signInAt(profile, shell, identityProvider) {
  const { context, page, close } = await freshProfile({ ...profile, session: [] });
  try {
    await page.goto(`${shell}/profile`);
    await page.waitForURL((url) => url.href.startsWith(`${identityProvider}/realms/`), { timeout: 60_000 });
    await fillLoginForm(page, 'alice');
    await page.waitForURL((url) => url.origin === shell, { timeout: 60_000 });
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor({ timeout: 60_000 });
    const idpHost = new URL(identityProvider).hostname;
    return (await context.cookies()).filter((cookie) => cookie.domain.replace(/^\./, '') === idpHost);
  } finally {
    await close();
  }
}

/**
 * One load pair in a fresh profile: a cold load of /profile with the provider's session, then a reload of it.
 *
 * @param {Parameters<typeof freshProfile>[0]} profile @param {string} shell
 */
async function loadAndReload(profile, shell) {
  const { page, close } = await freshProfile(profile);
  // the tab's own navigations to another origin (the provider: a full-page round trip, redirects included), per step
  let providerPages = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && new URL(request.url()).origin !== new URL(shell).origin)
      providerPages += 1;
  });
  try {
    const startedAt = Date.now();
    await page.goto(`${shell}/profile`, { waitUntil: 'commit' });
    const cold = await msUntilProfilePainted(page, startedAt);
    const coldProviderPages = providerPages;
    const reloadedAt = Date.now();
    await page.reload({ waitUntil: 'commit' });
    const reload = await msUntilProfilePainted(page, reloadedAt);
    return { cold, reload, providerPages: { cold: coldProviderPages, reload: providerPages - coldProviderPages } };
  } finally {
    await close();
  }
}

/** The baseline's server blocks in the HTTPS topology (as bench/lib/topology.mjs serves it on http://localhost). */
function baselineServers(/** @type {{ host: string, remote: string }} */ dirs) {
  return (/** @type {number} */ _port, /** @type {string} */ listen, /** @type {readonly string[]} */ tls) => {
    const ssl = tls.map((line) => `    ${line};`).join('\n');
    return `server {
    listen ${listen};
    server_name ${BASELINE_HOSTS.host};
${ssl}
    root ${dirs.host};
    location / { try_files $uri /index.html; }
}
server {
    listen ${listen};
    server_name ${BASELINE_HOSTS.remote};
${ssl}
    root ${dirs.remote};
    add_header Access-Control-Allow-Origin *;
    location / { try_files $uri =404; }
}
`;
  };
}

/**
 * The cross-site keys for Gatehouse and the baseline: per variant, `loads` alternating load pairs (the baseline's,
 * then Gatehouse's), each in a fresh browser profile.
 *
 * @param {object} options
 * @param {string} options.repoRoot
 * @param {string} options.workDir bench/.work
 * @param {Readonly<Record<string, string>>} options.dists the bench's builds, by app name
 * @param {number} options.loads
 * @param {(message: string) => void} options.log
 * @param {readonly Profile[]} options.deviceProfiles the device profiles (bench/lib/profiles.mjs), each key with its suffix
 * @returns {Promise<{
 *   gatehouse: Record<string, number>, baseline: Record<string, number>,
 *   spread: Record<string, Summary>, baselineSpread: Record<string, Summary>,
 *   providerPages: Record<string, { gatehouse: number, baseline: number }>,
 * }>}
 */
export async function measureCrossSite({ repoRoot, workDir, dists, loads, log, deviceProfiles }) {
  /** @type {TopologyModule} */
  const { startHttpsTopology } = await tsImport(TOPOLOGY_MODULE, import.meta.url);
  /** @type {{ ALL_HOSTS: string[] }} */
  const { ALL_HOSTS } = await tsImport(SITES_MODULE, import.meta.url);
  const work = join(workDir, 'https');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'tls'), { recursive: true });
  const leaf = createTestCa({ dir: join(work, 'tls') }).issue([...ALL_HOSTS, ...Object.values(BASELINE_HOSTS)], 'gatehouse-bench');
  // what the suite's globalSetup hands its workers (e2e/https/support/sites.ts, suiteState())
  process.env.GATEHOUSE_HTTPS_STATE = JSON.stringify({ work, certFile: leaf.certFile, keyFile: leaf.keyFile, spkiSha256: leaf.spkiSha256 });
  const profiles = join(work, 'profiles');

  /** @type {Record<string, number[]>} */
  const gatehouse = {};
  /** @type {Record<string, number[]>} */
  const baseline = {};
  /** the tab's navigations to the provider per load, per key (the last load's): a full-page round trip shows here */
  /** @type {Record<string, { gatehouse: number, baseline: number }>} */
  const providerPages = {};
  for (const site of /** @type {const} */ (['cross-site', 'same-site'])) {
    const baseDirs = { host: join(work, 'builds', site, 'baselineHost'), remote: join(work, 'builds', site, 'baselineRemote') };
    const topology = await startHttpsTopology(site, {
      roots: {
        shell: dists.shell ?? '',
        remotes: { profile: dists.profile ?? '', admin: dists.admin ?? '', reports: dists.reports ?? '' },
      },
      extraServers: baselineServers(baseDirs),
    });
    try {
      const baseHost = `https://${BASELINE_HOSTS.host}:${topology.port}`;
      // the baseline names its provider and remote at build time: built for this topology's addresses
      const env = { IDP_URL: topology.identityProvider, REMOTE_URL: `https://${BASELINE_HOSTS.remote}:${topology.port}` };
      for (const app of BASELINE_APPS) await buildApp(repoRoot, app, app.name === 'baselineHost' ? baseDirs.host : baseDirs.remote, env);
      // the demo realm (the provider imported it) with both setups' pages as the SPA client's redirect URIs
      const admin = await signInAsAdmin(topology.identityProviderUpstream);
      const [client] = await admin.clients.find({ realm: 'gatehouse', clientId: 'gatehouse-shell' });
      if (!client?.id) throw new Error('bench: the demo realm has no client "gatehouse-shell"');
      await admin.clients.update(
        { realm: 'gatehouse', id: client.id },
        {
          ...client,
          redirectUris: [`${topology.shell}/*`, `${baseHost}/*`],
          webOrigins: ['+'],
          attributes: { ...client.attributes, ...BASELINE_WITHOUT_DPOP },
        },
      );
      for (const variant of VARIANTS.filter((v) => v.site === site)) {
        const profile = { profiles, spki: leaf.spkiSha256, cookies: variant.cookies };
        const session = await signInAt(profile, topology.shell, topology.identityProvider);
        // one warm-up pair each (the provider's and nginx's first answers are not the page's)
        await loadAndReload({ ...profile, session }, baseHost);
        await loadAndReload({ ...profile, session }, topology.shell);
        for (const { suffix, cpuRate, name } of deviceProfiles) {
          const cold = `time_to_remote_visible_${variant.suffix}_ms${suffix}`;
          const reload = `reload_signed_in_${variant.suffix}_ms${suffix}`;
          for (const key of [cold, reload]) [gatehouse[key], baseline[key]] = [[], []];
          for (let i = 0; i < loads; i++) {
            const base = await loadAndReload({ ...profile, session, cpuRate }, baseHost);
            baseline[cold]?.push(base.cold);
            baseline[reload]?.push(base.reload);
            const ours = await loadAndReload({ ...profile, session, cpuRate }, topology.shell);
            gatehouse[cold]?.push(ours.cold);
            gatehouse[reload]?.push(ours.reload);
            providerPages[cold] = { gatehouse: ours.providerPages.cold, baseline: base.providerPages.cold };
            providerPages[reload] = { gatehouse: ours.providerPages.reload, baseline: base.providerPages.reload };
          }
          log(
            `${variant.suffix} (${name}): remote visible ${spreadOf(gatehouse[cold] ?? []).median} ms (baseline ${spreadOf(baseline[cold] ?? []).median}), ` +
              `reload ${spreadOf(gatehouse[reload] ?? []).median} ms (baseline ${spreadOf(baseline[reload] ?? []).median})`,
          );
        }
      }
    } finally {
      await topology.stop();
    }
  }
  const medians = (/** @type {Record<string, number[]>} */ series) =>
    Object.fromEntries(Object.entries(series).map(([key, values]) => [key, spreadOf(values).median]));
  const spreads = (/** @type {Record<string, number[]>} */ series) =>
    Object.fromEntries(Object.entries(series).map(([key, values]) => [key, spreadOf(values)]));
  return {
    gatehouse: medians(gatehouse),
    baseline: medians(baseline),
    spread: spreads(gatehouse),
    baselineSpread: spreads(baseline),
    providerPages,
  };
}
