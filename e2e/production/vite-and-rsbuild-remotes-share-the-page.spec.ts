import { expect, test, type Request, type Response } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { countReactRenderers, reactRenderers } from '../support/reactRenderers';
import { makeTempCheckout, REPO, run } from '../support/tempCheckout';
import { signIn, watch } from './support/browser';
import { previewConfig, SHELL, startTopology, type Topology } from './support/topology';

// Remotes built with Vite (@module-federation/vite) and Rsbuild (@module-federation/rsbuild-plugin), made with
// `npm run new-remote -- <name> --bundler vite|rsbuild` in a throw-away checkout, their own tests and build run once,
// served by nginx beside the webpack remotes of the production preview: on one page they share the shell's session,
// React, router and role gate, and run on the shell's federation runtime (decisions/0019), not a copy of their own.

const REMOTES = {
  vite: { name: 'ledger_vite', title: 'Ledger Vite', route: '/ledger-vite', origin: 'http://localhost:4005' },
  rsbuild: { name: 'ledger_rs', title: 'Ledger Rsbuild', route: '/ledger-rs', origin: 'http://localhost:4006' },
} as const;
const ALL = Object.values(REMOTES);

let root: string;
let topology: Topology | undefined;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  root = makeTempCheckout();
  const config = previewConfig();
  const builds: Record<string, string> = {};
  for (const [bundler, remote] of Object.entries(REMOTES)) {
    run(
      'npm',
      ['run', '--silent', 'new-remote', '--', remote.name, '--title', remote.title, '--bundler', bundler, '--skip-install', '--root', root],
      REPO,
    );
    const dir = path.join(root, 'remotes', remote.name);
    // the generated remote's own checks, as its README lists them: unit tests (and the contract check), types, build
    const tested = run('npm', ['test'], dir);
    expect(tested).toMatch(/Tests:\s+3 passed/);
    expect(tested).toContain('✓ The remote fits the shell.');
    run('npm', ['run', 'typecheck'], dir);
    run('npm', ['run', 'build'], dir);
    builds[remote.name] = path.join(dir, 'dist');
    // admin only: bob meets the shell's role gate
    config.remotes.push({
      name: remote.name,
      manifest: `${remote.origin}/mf-manifest.json`,
      route: remote.route,
      title: remote.title,
      realmRoles: ['admin'],
    });
  }
  topology = await startTopology({ config, remotes: builds });
});
test.afterAll(async () => {
  await topology?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test('alice opens a Vite, an Rsbuild and the webpack remotes on one page: one session, one React, one federation runtime', async ({
  page,
}) => {
  const watched = await watch(page);
  await countReactRenderers(page);
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const { title, name } of [...ALL, { title: 'Profile', name: 'profile' }, ALL[0]!]) {
    await nav.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    if (name === 'profile') continue;
    // the user and the roles of the shell's session, read through the shared @gatehouse/auth-lib
    await expect(page.getByTestId(`${name}-user`)).toHaveText('Alice Anders');
    await expect(page.getByText(/^Realm roles: .*\badmin\b/)).toBeVisible();
  }
  await expect(page.locator('[data-reason]')).toHaveCount(0);

  for (const { origin } of ALL) {
    // each remote's entry ran on the page (an ES module for Vite, a script for Rsbuild)
    const fromRemote = scripts
      .filter((response) => response.url().startsWith(`${origin}/`))
      .map((response) => new URL(response.url()).pathname);
    expect(fromRemote).toContain('/remoteEntry.js');
    expect(fromRemote.filter((file) => /federation-runtime-core/.test(file))).toEqual([]);
  }
  // one federation runtime: every container on the page (the shell and each remote) is an instance of the shell's
  // runtime-core; a remote that brought its own copy would add an instance of another class
  const runtimes = await page.evaluate(() => {
    const instances = (globalThis as unknown as { __FEDERATION__: { __INSTANCES__: Array<{ name: string; constructor: unknown }> } })
      .__FEDERATION__.__INSTANCES__;
    return {
      names: instances.map((instance) => instance.name).sort(),
      classes: new Set(instances.map((instance) => instance.constructor)).size,
    };
  });
  expect(runtimes.names).toEqual(expect.arrayContaining(['gatehouse_shell', 'ledger_rs', 'ledger_vite', 'profile']));
  expect(runtimes.classes).toBe(1);
  // one React: every react-dom copy that starts registers with the DevTools hook
  expect(await reactRenderers(page)).toBe(1);
  expect(await watched.cspViolations()).toEqual([]);
  expect(watched.console.filter((line) => /^(error|pageerror)/.test(line))).toEqual([]);
});

test("bob is stopped by the shell's role gate before anything of the Vite or Rsbuild remote is fetched", async ({ page }) => {
  const fetched: Request[] = [];
  page.on('request', (request) => {
    if (ALL.some(({ origin }) => request.url().startsWith(origin))) fetched.push(request);
  });
  await page.goto(`${SHELL}/`);
  await signIn(page, 'bob');
  for (const { route } of ALL) {
    await page.goto(`${SHELL}${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access denied');
    await expect(page.getByText(/admin/).first()).toBeVisible();
  }
  // the webpack remote bob may open still loads on the same page
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  expect(fetched.map((request) => request.url())).toEqual([]);
});

// decisions/0109: each container gets its own @gatehouse/auth-lib from the shell, whatever built it. These remotes name
// no `api`: their view is the page session, forApi of any API refused; and the module is the shell's per-remote one
// (its <AuthProvider> without a session provides the view), not the shared singleton every script reads.
test("inside the Vite and the Rsbuild remote, auth-lib is the remote's own: the page session's view, forApi refused", async ({ page }) => {
  await page.goto(`${SHELL}/`);
  await signIn(page, 'alice');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const { title, name } of ALL) {
    await nav.getByRole('link', { name: title }).click();
    await expect(page.getByTestId(`${name}-user`)).toHaveText('Alice Anders');
    const found = await page.evaluate(async (remote) => {
      type Session = { api: unknown; getToken(): Promise<string>; forApi(api: unknown): Session };
      type AuthLib = {
        getSession(): Session;
        whenSession(): Promise<Session>;
        AuthProvider(props: { children: null }): { props: { session?: Session } };
      };
      type Instance = { name: string; loadShare(pkg: string): Promise<false | (() => AuthLib)> };
      const instances = (globalThis as unknown as { __FEDERATION__: { __INSTANCES__: Instance[] } }).__FEDERATION__.__INSTANCES__;
      const factory = await instances.find((instance) => instance.name === remote)!.loadShare('@gatehouse/auth-lib');
      if (!factory) throw new Error(`"${remote}" has no shared @gatehouse/auth-lib`);
      const lib = factory();
      const session = lib.getSession();
      let refusal = '';
      try {
        session.forApi({ url: 'http://localhost:3010/admin', audience: 'admin-api', scope: 'admin-api' });
      } catch (error) {
        refusal = `${(error as { code: string }).code}: ${(error as Error).message}`;
      }
      const provided = lib.AuthProvider({ children: null }).props.session;
      return {
        api: session.api,
        same: (await lib.whenSession()) === session && provided === session,
        pageToken: (await session.getToken()) === (await provided?.getToken()),
        refusal,
      };
    }, name);
    expect(found, name).toEqual({
      api: null,
      same: true,
      pageToken: true,
      refusal: expect.stringMatching(/^invalid-argument: .*page session without any API audience/),
    });
  }
});
