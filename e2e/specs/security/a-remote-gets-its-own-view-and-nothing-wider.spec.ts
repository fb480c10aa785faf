import { expect, test, type JSHandle, type Page, type Request } from '@playwright/test';
import { openWithSession, requestsTo } from '../../support/flows';

// decisions/0109: from inside a remote's container, every documented entry point of auth-lib gives
// that remote's own view of the session (its API's token alone, aud decoded) and forApi of another API is refused;
// the page-wide entry points (the global registry, the shell's `./auth`) give the page view, whose forApi refuses
// every API. The remote's auth-lib is fetched the way its code's `import … from '@gatehouse/auth-lib'` is: through
// its own federation instance's loadShare (what its bundler's runtime calls), in the page.

const API = 'http://localhost:3010';
const APIS = {
  profile: { url: `${API}/profile`, audience: 'profile-api', scope: 'profile-api' },
  reports: { url: `${API}/reports`, audience: 'reports-api', scope: 'reports-api' },
  admin: { url: `${API}/admin`, audience: 'admin-api', scope: 'admin-api' },
} as const;

type Api = (typeof APIS)[keyof typeof APIS];

interface Refusal {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

interface EntryPoints {
  /** the audience of each entry point's token: getSession, whenSession, createSession, the AuthProvider's default */
  readonly audiences: Record<string, string[]>;
  /** the address authFetch was called with (what it sent is read from the request) */
  readonly authFetchUrl: string;
  /** forApi of each other API */
  readonly refusals: readonly (Refusal | null)[];
  /** forApi of its own API gives its own view back */
  readonly ownApiIsItself: boolean;
}

/** Calls each entry point of `remote`'s own `@gatehouse/auth-lib` in the page. */
async function entryPointsOf(page: Page, remote: keyof typeof APIS): Promise<EntryPoints> {
  const others = Object.entries(APIS)
    .filter(([name]) => name !== remote)
    .map(([, api]) => api);
  const entryPoints = await page.evaluateHandle(
    async ({ remote, own }) => {
      type Session = {
        api: { audience: string } | null;
        config: unknown;
        getToken(): Promise<string>;
        forApi(api: unknown): Session;
      };
      type AuthLib = {
        getSession(): Session;
        whenSession(): Promise<Session>;
        createSession(config: unknown): Session;
        authFetch(input: string): Promise<Response>;
        AuthProvider(props: { children: null }): { props: { session: Session } };
      };
      type Instance = { name: string; loadShare(pkg: string): Promise<false | (() => AuthLib)> };
      const instances = (globalThis as unknown as { __FEDERATION__: { __INSTANCES__: Instance[] } }).__FEDERATION__.__INSTANCES__;
      const instance = instances.find((candidate) => candidate.name === remote);
      if (!instance) throw new Error(`no federation instance "${remote}" on the page`);
      const factory = await instance.loadShare('@gatehouse/auth-lib');
      if (!factory) throw new Error(`"${remote}" has no shared @gatehouse/auth-lib`);
      const lib = factory();
      const aud = (token: string): string[] => {
        const claims = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { aud?: string | string[] };
        return typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
      };
      const session = lib.getSession();
      const sessions: Record<string, Session> = {
        getSession: session,
        whenSession: await lib.whenSession(),
        createSession: lib.createSession(session.config),
        AuthProvider: lib.AuthProvider({ children: null }).props.session,
      };
      const audiences: Record<string, string[]> = {};
      for (const [entry, view] of Object.entries(sessions)) audiences[entry] = aud(await view.getToken());
      // the answer does not matter here (the API may ask for more than a bearer token): what was sent does
      const authFetchUrl = `${own.url}?entry=authFetch&remote=${remote}`;
      await lib.authFetch(authFetchUrl).catch(() => undefined);
      return {
        found: { audiences, authFetchUrl, ownApiIsItself: session.forApi(own) === session },
        session,
      };
    },
    { remote, own: APIS[remote] },
  );
  const found = await (await entryPoints.getProperty('found')).jsonValue();
  const refusals = await refusalsOf(await entryPoints.getProperty('session'), others);
  await entryPoints.dispose();
  return { ...found, refusals };
}

/** What forApi of each of `apis` throws, in the page, for the session `view` holds (null: it gave a view). */
function refusalsOf(view: JSHandle, apis: readonly Api[]): Promise<(Refusal | null)[]> {
  return view.evaluate(
    (session, apis) =>
      apis.map((api) => {
        try {
          (session as { forApi(api: unknown): unknown }).forApi(api);
          return null;
        } catch (error) {
          const { name, code, message } = error as Refusal;
          return { name, code, message };
        }
      }),
    apis,
  );
}

/** The audience of the token a request carried (`Bearer` or `DPoP`). */
function audienceSent(request: Request | undefined): string[] {
  const token = request?.headers().authorization?.replace(/^(Bearer|DPoP) /, '') ?? '';
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8') || '{}') as { aud?: string | string[] };
  return typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
}

/** Waits until `remote`'s container is on the page. */
async function containerLoaded(page: Page, remote: string): Promise<void> {
  await page.waitForFunction(
    (name) =>
      (globalThis as unknown as { __FEDERATION__?: { __INSTANCES__: { name: string }[] } }).__FEDERATION__?.__INSTANCES__.some(
        (instance) => instance.name === name,
      ) ?? false,
    remote,
  );
}

function expectRefused(refusals: readonly (Refusal | null)[], own: string): void {
  for (const refusal of refusals) {
    expect(refusal, 'forApi of another API was granted').not.toBeNull();
    expect(refusal!.name).toBe('AuthError');
    expect(refusal!.code).toBe('invalid-argument');
    expect(refusal!.message).toContain(own);
    expect(refusal!.message).toMatch(/registry entry \(config\.json, remotes\[\]\.api/);
  }
}

test("from inside each remote, every auth-lib entry point gives that remote's API token alone and forApi of another API is refused @idp", async ({
  page,
}) => {
  const calls = requestsTo(page, API);
  await openWithSession(page, 'alice', '/profile');
  // the profile remote mounted and its API card called its API before the visitor moves on (on a slow machine the
  // click could otherwise come before the remote's code arrived, and the profile remote would never mount)
  await expect(page.locator('[data-remote="profile"]').getByTestId('api-answer')).toHaveText('Signed in as alice', { timeout: 15_000 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports');
  await expect(page.locator('[data-remote="reports"]').getByTestId('api-answer')).toHaveText('Signed in as alice', { timeout: 15_000 });

  for (const remote of ['profile', 'reports'] as const) {
    const audience = APIS[remote].audience;
    await containerLoaded(page, remote);
    // the React hooks in the remote's slot: its ApiCard's useAuth().authFetch
    await expect.poll(() => calls.find((call) => new URL(call.url()).pathname === `/${remote}`)).toBeDefined();
    expect(audienceSent(calls.find((call) => new URL(call.url()).pathname === `/${remote}`)), `${remote}: the hooks`).toEqual([audience]);
    const found = await entryPointsOf(page, remote);
    for (const [entry, audiences] of Object.entries(found.audiences)) expect(audiences, `${remote}: ${entry}`).toEqual([audience]);
    await expect.poll(() => calls.find((call) => call.url() === found.authFetchUrl)).toBeDefined();
    expect(audienceSent(calls.find((call) => call.url() === found.authFetchUrl)), `${remote}: authFetch`).toEqual([audience]);
    expect(found.ownApiIsItself).toBe(true);
    expectRefused(found.refusals, `"${audience}"`);
  }
});

test("the page-wide entry points, the global registry and the shell's ./auth, give the page view: forApi refuses every API", async ({
  page,
}) => {
  await openWithSession(page, 'alice', '/profile');
  await containerLoaded(page, 'profile');
  const views = await page.evaluateHandle(
    async ({ shell }) => {
      type Session = { api: unknown; getToken(): Promise<string>; forApi(api: unknown): Session };
      type Auth = { getSession(): Session; whenSession(): Promise<Session> };
      const registry = (globalThis as unknown as Record<symbol, { session: Session } | undefined>)[
        Symbol.for('gatehouse.auth-lib.session')
      ]!.session;
      // the shell's federated ./auth: the shell's container entry, started with the shell's own share scope (so its
      // auth-lib is the shell's, not a copy a runtime plugin made), as any script on the page can
      type Container = {
        init(scope: unknown, initScope: unknown[], options: unknown): Promise<unknown>;
        get(module: string): Promise<() => Auth>;
      };
      type Host = { name: string; shareScopeMap: Record<string, unknown> };
      const host = (globalThis as unknown as { __FEDERATION__: { __INSTANCES__: Host[] } }).__FEDERATION__.__INSTANCES__.find(
        (instance) => instance.name === 'gatehouse_shell',
      )!;
      await new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = `${shell}/remoteEntry.js`;
        script.onload = resolve;
        script.onerror = reject;
        document.head.append(script);
      });
      const container = (globalThis as unknown as { gatehouse_shell: Container }).gatehouse_shell;
      const options = { version: '', shareScopeKeys: 'default' };
      Object.defineProperty(options, 'shareScopeMap', { value: host.shareScopeMap, enumerable: false });
      await container.init(host.shareScopeMap['default'], [], options);
      const auth = (await container.get('./auth'))();
      return [registry, auth.getSession(), await auth.whenSession()];
    },
    { shell: new URL(page.url()).origin },
  );
  for (const index of ['0', '1', '2']) {
    const view = await views.getProperty(index);
    expect(await view.evaluate((session) => session.api)).toBeNull();
    expectRefused(await refusalsOf(view, Object.values(APIS)), 'the page session without any API audience');
  }
  await views.dispose();
});
