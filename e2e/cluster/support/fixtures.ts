import { testRealm } from '@gatehouse/dev-idp/test-realm';
import { signInAsAdmin } from '@gatehouse/testkit/admin';
import { withDemoClientScopes } from '@gatehouse/testkit/realm-scopes';
import { test as base, expect, type BrowserContext, type Page, type Response } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { fillLoginForm } from '../../production/support/browser';
import { freePort } from '@gatehouse/testkit/ports';
import { startPostgres } from '@gatehouse/testkit/postgres';
import { startSessionEvents, type SessionEvents } from '@gatehouse/session-events';
import { previewConfig, startTopology } from '../../production/support/topology';
import { NODE_HEADER, onNodeStarted, startKeycloakCluster, type ClusterNode, type KeycloakCluster } from './cluster';

/**
 * The test realms' access-token lifespan: short, so every scenario sees tokens renewed within seconds and the whole
 * cluster outlives one quickly. (A session check's user-info request that reaches Keycloak after such a token ran
 * out is answered 401; auth-lib then refreshes instead of ending the session: decisions/0091.)
 */
export const TOKEN_LIFESPAN_S = 10;
/** config.json's `sessionWatchSeconds`: the leading tab checks the session at the provider this often. */
const SESSION_WATCH_S = 5;

/** One answer of the identity provider (through the load balancer) to a page of the context. */
export interface ProviderAnswer {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** a token request's `grant_type` (refresh_token, authorization_code), else null */
  readonly grant: string | null;
  /** the node that answered: the last address of the load balancer's X-Keycloak-Node (it may have tried a dead one first) */
  readonly node: string;
  /** the tab whose request it answered (null: a request of no page, e.g. a service worker's) */
  readonly page: Page | null;
}

/** Every answer the provider gave the context's pages and frames, in order. */
export class ProviderTraffic {
  readonly answers: ProviderAnswer[] = [];

  constructor(context: BrowserContext, providerUrl: string) {
    context.on('response', (response) => {
      if (!response.url().startsWith(providerUrl)) return;
      const node = lastNode(response.headers()[NODE_HEADER]);
      this.answers.push({
        at: Date.now(),
        method: response.request().method(),
        path: new URL(response.url()).pathname,
        status: response.status(),
        grant: new URLSearchParams(response.request().postData() ?? '').get('grant_type'),
        page: pageOf(response),
        node,
      });
    });
  }

  since(at: number): ProviderAnswer[] {
    return this.answers.filter((answer) => answer.at >= at);
  }

  /** token-endpoint answers (code exchange or refresh) since `at` */
  tokenAnswers(at: number): ProviderAnswer[] {
    return this.since(at).filter((answer) => answer.method === 'POST' && answer.path.endsWith('/protocol/openid-connect/token'));
  }

  /** refreshes the provider granted since `at` */
  refreshes(at: number): ProviderAnswer[] {
    return this.tokenAnswers(at).filter((answer) => answer.grant === 'refresh_token' && answer.status === 200);
  }
}

function pageOf(response: Response): Page | null {
  try {
    return response.frame().page();
  } catch {
    return null; // a service worker's request
  }
}

/** "127.0.0.1:1234, 127.0.0.1:5678" → "127.0.0.1:5678" (nginx lists every upstream it tried). */
function lastNode(header: string | undefined): string {
  return (header ?? '').split(',').at(-1)?.trim() ?? '';
}

/** What one scenario runs on: a realm of its own in the cluster, the production builds behind nginx pointed at it. */
export interface Scenario {
  readonly realm: string;
  /**
   * With `sessionEventsInstances`: two session-events instances on one PostgreSQL of their own; the realm posts its
   * back-channel logout to `receiving`, the pages subscribe at `streaming` (decisions/0118).
   */
  readonly sessionEvents?: { readonly receiving: SessionEvents; readonly streaming: SessionEvents };
  /** signs `page` in as alice on the remote's `route`; returns the node that answered the sign-in (holds the session) */
  signIn(page: Page, route: string): Promise<ClusterNode>;
}

/** The running test's shell origin (the suite runs one test at a time), for expectWorking. */
let currentShell = '';

interface ClusterFixtures {
  /**
   * The nodes a scenario starts on: `all` (both; the default), or `one` (a Keycloak on its own: the other stays
   * or is stopped). The cluster is shared by the specs, and a spec leaves it as it ends (a node killed stays down
   * until a scenario needs it), so no node is started only to be stopped again.
   */
  runningNodes: 'all' | 'one';
  /** two session-events instances sharing a PostgreSQL beside the cluster (Scenario.sessionEvents); default off */
  sessionEventsInstances: boolean;
  /**
   * The shell's origin, on a free port (the remotes on free ports too): the suite shares no fixed port with the
   * production suite, so it can run beside it (scripts/test-keycloak.mjs). Also the pages' `baseURL`.
   */
  shell: string;
  /** the remotes' manifest URLs, on free ports, by name */
  remoteManifests: Record<string, string>;
  scenario: Scenario;
  traffic: ProviderTraffic;
}

/**
 * The cluster once per worker (the suite runs one worker: its specs share it, each starting the nodes it needs,
 * `runningNodes`), and per test a realm with short lifespans and the production topology (shell and remotes built,
 * served by nginx on :4000–4003) whose config.json names the cluster's load balancer.
 */
export const test = base.extend<ClusterFixtures, { cluster: KeycloakCluster }>({
  cluster: [
    async ({}, use) => {
      const cluster = await startKeycloakCluster();
      await use(cluster);
      await cluster.stop();
    },
    { scope: 'worker', timeout: 600_000 },
  ],
  runningNodes: ['all', { option: true }],
  sessionEventsInstances: [false, { option: true }],
  shell: async ({}, use) => {
    currentShell = `http://localhost:${await freePort()}`;
    await use(currentShell);
  },
  remoteManifests: async ({}, use) => {
    const manifests: Record<string, string> = {};
    for (const { name } of previewConfig().remotes) manifests[name] = `http://localhost:${await freePort()}/mf-manifest.json`;
    await use(manifests);
  },
  baseURL: async ({ shell }, use) => {
    await use(shell);
  },
  traffic: async ({ context, cluster }, use) => {
    await use(new ProviderTraffic(context, cluster.url));
  },
  scenario: async ({ cluster, runningNodes, sessionEventsInstances, shell, remoteManifests }, use, testInfo) => {
    // A Keycloak start takes 15 s on a quiet machine and two minutes on a busy one: the test's time limit
    // (the config's `timeout`) is for what the test does, so each node start during it adds its own time.
    onNodeStarted((ms) => testInfo.setTimeout(testInfo.timeout + ms));
    if (runningNodes === 'all') await cluster.startAll();
    else {
      const [keep, ...rest] = [...cluster.nodes].sort((a, b) => Number(b.running) - Number(a.running));
      await Promise.all(rest.filter((node) => node.running).map((node) => node.stop()));
      if (!keep!.running) await keep!.start();
    }
    const name = `e2e-cluster-${randomUUID().slice(0, 8)}`;
    const rep = withDemoClientScopes(testRealm(name, { origin: shell }));
    const events = sessionEventsInstances ? { receiving: await freePort(), streaming: await freePort() } : null;
    if (events) {
      const client = rep.clients?.find((c) => c.clientId === 'gatehouse-shell');
      if (!client) throw new Error('testRealm() has no gatehouse-shell client');
      client.attributes = {
        ...client.attributes,
        'backchannel.logout.url': `http://127.0.0.1:${events.receiving}/backchannel-logout`,
        'backchannel.logout.session.required': 'true',
      };
    }
    const admin = await signInAsAdmin(cluster.url);
    await admin.realms.create({ ...rep, displayName: `e2e ${testInfo.title}`, accessTokenLifespan: TOKEN_LIFESPAN_S });
    const toStop: Array<() => Promise<void>> = [];
    let instances: Scenario['sessionEvents'];
    if (events) {
      const postgres = await startPostgres({ port: await freePort(), database: 'events', username: 'events' });
      toStop.push(postgres.stop);
      const databaseUrl = `postgres://events@127.0.0.1:${postgres.port}/events`;
      const start = (port: number) =>
        startSessionEvents({ port, issuer: `${cluster.url}/realms/${name}`, origins: [shell], databaseUrl, quiet: true });
      const receiving = await start(events.receiving);
      toStop.unshift(() => receiving.close());
      const streaming = await start(events.streaming);
      toStop.unshift(() => streaming.close());
      instances = { receiving, streaming };
    }
    const config = previewConfig();
    if (events) config['sessionEvents'] = { url: `http://localhost:${events.streaming}` };
    config.identityProvider = { ...config.identityProvider, url: cluster.url, realm: name, sessionWatchSeconds: SESSION_WATCH_S };
    // no demo API runs beside the cluster (it verifies the tokens of the provider on :8080): the remotes name none
    config.remotes = config.remotes.map(({ api: _api, ...remote }) => ({ ...remote, manifest: remoteManifests[remote.name]! }));
    const topology = await startTopology({ config, shellPort: Number(new URL(shell).port) });
    await use({
      realm: name,
      ...(instances ? { sessionEvents: instances } : {}),
      async signIn(page, route) {
        const signedIn = page.waitForResponse(
          (response) => response.request().method() === 'POST' && response.url().includes('/login-actions/authenticate'),
        );
        // a remote's route sends a signed-out visitor straight to the provider's login form
        await page.goto(`${shell}${route}`);
        await fillLoginForm(page, 'alice');
        await expect(page.getByTestId('user-name')).toHaveText(/alice/i);
        return cluster.node(lastNode((await signedIn).headers()[NODE_HEADER]));
      },
    });
    onNodeStarted(null);
    await topology.stop();
    for (const stop of toStop) await stop();
    // the realm goes with the database when no node runs (a scenario that failed half-way)
    if (cluster.nodes.some((node) => node.running)) await (await signInAsAdmin(cluster.url)).realms.del({ realm: name });
  },
});

export { expect };

/** Opens `title` from the main navigation and waits for its heading (its remote rendered, signed in). */
export async function open(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/**
 * Waits until the provider has renewed the tabs' access token after `since` (a refresh answered 200). With the
 * test realms' short tokens the leading tab's session check renews it by itself; a navigation also renews an
 * expired one, so `page` opens Profile again while none has come.
 */
export async function untilTheTokenIsRenewed(page: Page, traffic: ProviderTraffic, since: number): Promise<void> {
  await expect(async () => {
    if (traffic.refreshes(since).length > 0) return;
    await open(page, 'Profile');
    expect(traffic.refreshes(since).length, 'a refresh answered since then').toBeGreaterThan(0);
  }).toPass({ intervals: [1000], timeout: (TOKEN_LIFESPAN_S + 20) * 1000 });
}

/**
 * Waits until the login-status frame of each tab has made its first check: Keycloak's frame asks the provider once,
 * at that check (`…/login-status-iframe.html/init`), whether the page's origin may use it, and answers "error" for
 * good when that request fails — which keycloak-js and auth-lib take for a refusal and sign the tab out. A tab
 * opened moments before the provider goes away is signed out so; the scenarios take
 * the provider away only after every tab's frame has passed that check.
 */
export async function untilTheFramesAreChecked(traffic: ProviderTraffic, pages: Page[]): Promise<void> {
  const checked = (page: Page) => {
    const answers = traffic.answers.filter((answer) => answer.page === page);
    const lastFrame = answers.findLastIndex((answer) => answer.path.endsWith('/login-status-iframe.html'));
    // a tab that runs on the leading tab's tokens may have no frame of its own
    return (
      lastFrame === -1 ||
      answers.slice(lastFrame).some((answer) => answer.path.endsWith('/login-status-iframe.html/init') && answer.status === 204)
    );
  };
  for (const page of pages)
    await expect.poll(() => checked(page), { message: `the login-status frame of ${page.url()} checked its origin` }).toBe(true);
}

/**
 * Where every scenario starts: alice signs in in a first tab on Profile, and a second tab opens Reports on that
 * session. `holder`: the node that answered the sign-in (it holds the session).
 */
export async function twoSignedInTabs(
  context: BrowserContext,
  scenario: Scenario,
): Promise<{ first: Page; second: Page; holder: ClusterNode }> {
  const first = await context.newPage();
  const holder = await scenario.signIn(first, '/profile');
  const second = await context.newPage();
  await second.goto('/reports');
  await expectWorking(second, 'Reports');
  return { first, second, holder };
}

/**
 * What "the page keeps working" means: signed in as alice, no sign-in page, no alert, no failed remote, and
 * the route's heading shown.
 */
export async function expectWorking(page: Page, title: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveText(/alice/i);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('[data-reason]')).toHaveCount(0);
  await expect(page.getByTestId('session-notice')).toHaveCount(0);
  expect(new URL(page.url()).origin).toBe(currentShell);
}
