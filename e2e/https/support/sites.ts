/**
 * The host names of the HTTPS suite: each app and the identity provider on a site of its own, as real
 * deployments are (site = scheme + registrable domain; ports do not count). Chromium maps every `*.test`
 * name to 127.0.0.1 (`--host-resolver-rules`), and one nginx on a free port serves them all by name.
 */
export const HOSTS = {
  /** the shell: the site every other one is measured against */
  shell: 'portal.gatehouse.test',
  /** the remotes, on a CDN's site */
  remotes: { profile: 'profile.gatehouse-cdn.test', admin: 'admin.gatehouse-cdn.test', reports: 'reports.gatehouse-cdn.test' },
  /** the identity provider at a vendor's domain: another site than the shell's */
  crossSiteIdentityProvider: 'sso.idp-vendor.test',
  /** the identity provider on the shell's site */
  sameSiteIdentityProvider: 'sso.gatehouse.test',
  /** the session-events service's public host (the shell's site), proxied by nginx to the service on loopback */
  sessionEvents: 'events.gatehouse.test',
  /** the probe's top page (the shell's site) and its frame (a site of its own) */
  probeTop: 'probe.gatehouse.test',
  probeFrame: 'cookie-probe.test',
} as const;

/** Every name the suite's certificate must be valid for. */
export const ALL_HOSTS: string[] = [
  HOSTS.shell,
  ...Object.values(HOSTS.remotes),
  HOSTS.crossSiteIdentityProvider,
  HOSTS.sameSiteIdentityProvider,
  HOSTS.sessionEvents,
  HOSTS.probeTop,
  HOSTS.probeFrame,
];

/**
 * Where the identity provider sits relative to the shell (deploy/README.md, "Choosing a topology"): on a host
 * of another site, on a host of the shell's site, or under a path of the shell's own origin.
 */
export type IdentityProviderSite = 'cross-site' | 'same-site' | 'proxied';

/** Whether the browser profile lets a frame from another site keep cookies. */
export type ThirdPartyCookies = 'allowed' | 'blocked';

/** What globalSetup hands the workers (through GATEHOUSE_HTTPS_STATE). */
export interface SuiteState {
  /** the folder of this run: certificates, nginx files, profiles */
  work: string;
  certFile: string;
  keyFile: string;
  /** the leaf's public key hash: Chromium accepts that certificate (--ignore-certificate-errors-spki-list) */
  spkiSha256: string;
}

export function suiteState(): SuiteState {
  const raw = process.env.GATEHOUSE_HTTPS_STATE;
  if (!raw)
    throw new Error('GATEHOUSE_HTTPS_STATE is not set: run the HTTPS suite through e2e/playwright.https.config.ts (its globalSetup).');
  return JSON.parse(raw) as SuiteState;
}
