import { expect, test as base, chromium, type BrowserContext, type Page } from '@playwright/test';
import { endSessionsOf, signInAsAdmin } from '@gatehouse/testkit/admin';
import { CHROMIUM_ARGS, chromiumLaunchOptions } from '@gatehouse/testkit/chromium';
import { stepUpOfTheRealmFile } from '@gatehouse/testkit/keycloak';
import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { withDemoClientScopes } from '@gatehouse/testkit/realm-scopes';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTS, suiteState, type IdentityProviderSite, type ThirdPartyCookies } from './sites';
import { startHttpsTopology, type HttpsTopology, type ShellIdentityOptions } from './topology';

/** Lifespans (seconds) a spec shortens in its realm; absent ones keep testRealm()'s. */
export interface Lifespans {
  accessTokenLifespan?: number;
  ssoSessionIdleTimeout?: number;
  ssoSessionMaxLifespan?: number;
}

/** The realm a test signs in to: made for it through the admin API (it goes when its provider stops). */
export interface HttpsRealm {
  readonly name: string;
  /** ends every session of `username` at the provider, as an administrator's "Sign out" does */
  logout(username: string): Promise<void>;
}

interface TestFixtures {
  /** the browser profile's third-party-cookie setting (the cross-site tests run with both: withBothCookieSettings) */
  thirdPartyCookies: ThirdPartyCookies;
  lifespans: Lifespans;
  /** config.json's `identityProvider` options a spec changes; absent ones keep the preview's */
  shellOptions: ShellIdentityOptions;
  /**
   * the realm's gatehouse-shell posts its back-channel logout to the topology's session-events port and config.json
   * names the service (the test starts the service itself: its issuer is the test's realm)
   */
  backchannelLogout: boolean;
  realm: HttpsRealm;
}

interface WorkerFixtures {
  identityProviderSite: IdentityProviderSite;
  topology: HttpsTopology;
}

/** `profile.cookie_controls_mode` of Chromium's Preferences: 0 allows third-party cookies, 1 blocks them. */
const COOKIE_CONTROLS_MODE: Record<ThirdPartyCookies, number> = { allowed: 0, blocked: 1 };

/**
 * What a frame of another site can do with cookies in `context`: the probe's frame sets a
 * `SameSite=None; Secure` cookie and reads it back, as the identity provider's frame needs to.
 */
export async function probeThirdPartyCookies(context: BrowserContext, probeUrl: string): Promise<ThirdPartyCookies> {
  const page = await context.newPage();
  try {
    await page.goto(probeUrl);
    const frame = page.frames().find((f) => new URL(f.url()).hostname === HOSTS.probeFrame);
    if (!frame)
      throw new Error(`the probe page ${probeUrl} has no frame from cookie-probe.test (frames: ${page.frames().map((f) => f.url())})`);
    const kept = await frame.evaluate(() => {
      const value = crypto.randomUUID();
      document.cookie = `probe=${value}; SameSite=None; Secure; Path=/`;
      return document.cookie.includes(`probe=${value}`);
    });
    return kept ? 'allowed' : 'blocked';
  } finally {
    await page.close();
  }
}

/**
 * The HTTPS suite's fixtures. Worker-scoped: the topology (one nginx over TLS, the provider on the site
 * `identityProviderSite` names) and the browser setting (`thirdPartyCookies`), both chosen by the project.
 * Per test: a realm of its own (lifespans from `lifespans`), and a fresh persistent Chromium profile whose
 * Preferences set the third-party-cookie mode — proven by the probe before the test starts.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  thirdPartyCookies: ['allowed', { option: true }],
  identityProviderSite: ['cross-site', { scope: 'worker', option: true }],
  topology: [
    async ({ identityProviderSite }, use) => {
      const topology = await startHttpsTopology(identityProviderSite);
      await use(topology);
      await topology.stop();
    },
    // Keycloak's start-up (its first one builds it and imports the realm) can take minutes on a loaded machine.
    { scope: 'worker', timeout: 360_000 },
  ],
  lifespans: [{}, { option: true }],
  shellOptions: [{}, { option: true }],
  backchannelLogout: [false, { option: true }],

  realm: async ({ topology, lifespans, shellOptions, backchannelLogout }, use, testInfo) => {
    const name = `https-${testInfo.workerIndex}-${randomUUID().slice(0, 8)}`;
    const provider = topology.identityProviderUpstream;
    const rep = withDemoClientScopes(testRealm(name, { origin: topology.shell }));
    if (backchannelLogout) {
      // as the realm file's gatehouse-shell, at the address the provider reaches the service at (loopback)
      const shell = rep.clients?.find((client) => client.clientId === 'gatehouse-shell');
      if (!shell) throw new Error(`testRealm() has no gatehouse-shell client`);
      shell.attributes = {
        ...shell.attributes,
        'backchannel.logout.url': `http://127.0.0.1:${topology.sessionEvents.port}/backchannel-logout`,
        'backchannel.logout.session.required': 'true',
      };
    }
    await (await signInAsAdmin(provider)).realms.create({ ...rep, ...stepUpOfTheRealmFile(), ...lifespans });
    topology.useRealm(name, shellOptions, backchannelLogout);
    // Each admin call signs in again: Keycloak's admin tokens (realm master) last 60 s, less than a test.
    await use({ name, logout: (username) => endSessionsOf(provider, name, username) });
    // Not deleted: the provider is the topology's, which stops with the worker, and deleting a realm cost a
    // quick-start Keycloak 0.7 CPU-seconds (decisions/0106). No test reads another's realm.
  },

  context: async ({ thirdPartyCookies, topology }, use, testInfo) => {
    const state = suiteState();
    const profile = join(state.work, 'profiles', `${testInfo.workerIndex}-${randomUUID()}`);
    mkdirSync(join(profile, 'Default'), { recursive: true });
    writeFileSync(
      join(profile, 'Default', 'Preferences'),
      JSON.stringify({ profile: { cookie_controls_mode: COOKIE_CONTROLS_MODE[thirdPartyCookies] } }),
    );
    const context = await chromium.launchPersistentContext(profile, {
      // The browser, not its headless shell: only the browser reads the profile's cookie mode (decisions/0104).
      executablePath: chromiumLaunchOptions({ needs: 'browser' }).executablePath,
      args: [
        ...CHROMIUM_ARGS,
        '--host-resolver-rules=MAP *.test 127.0.0.1',
        // The throwaway CA's leaf is accepted as valid (not merely clicked through): secure context holds.
        `--ignore-certificate-errors-spki-list=${state.spkiSha256}`,
      ],
    });
    expect(await probeThirdPartyCookies(context, topology.probe), 'the profile third-party cookie mode, as the probe frame sees it').toBe(
      thirdPartyCookies,
    );
    await use(context);
    await context.close();
  },

  page: async ({ context, realm }, use) => {
    void realm; // the realm exists, and config.json names it, before the page opens
    await use(context.pages()[0] ?? (await context.newPage()));
  },
});

export { expect };

/**
 * Declares the tests of `declare` twice, with third-party cookies allowed and blocked (titles under "third-party
 * cookies allowed" and "… blocked"): the `cross-site/` specs, all in the one worker of the `cross-site` project, so
 * against one topology and one identity provider (on Keycloak one JVM) for both settings. Each test has a browser
 * profile of its own anyway (`context`).
 */
export function withBothCookieSettings(declare: () => void): void {
  for (const cookies of ['allowed', 'blocked'] as const) {
    test.describe(`third-party cookies ${cookies}`, () => {
      test.use({ thirdPartyCookies: cookies });
      declare();
    });
  }
}

/** The page's main heading. */
export function heading(page: Page) {
  return page.getByRole('heading', { level: 1 });
}
