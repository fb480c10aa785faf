// As decisions/0109 says: through the real federation runtime (the shell's runtime-core), each remote
// container's `@gatehouse/auth-lib` is its own, bound to its view of the session: getSession, whenSession, authFetch
// and createSession give that view; forApi of another API is refused; the shell's own share scope is untouched.
import * as authLib from '@gatehouse/auth-lib';
import { AuthError, remoteView, VERSION, type ApiBinding, type Session } from '@gatehouse/auth-lib';
import { createTestSession, setPageSession } from '@gatehouse/auth-lib/testing';
import { ModuleFederation, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { authModuleFor, type AuthLibModule } from '../auth/remoteAuthModule';
import { AUTH_LIB, remoteAuthPlugin } from './remoteAuthPlugin';

const PROFILE: ApiBinding = { url: 'https://api.example.com/profile', audience: 'profile-api', scope: 'profile-api' };
const ADMIN: ApiBinding = { url: 'https://api.example.com/admin', audience: 'admin-api', scope: 'admin-api' };
const REMOTES = [
  { name: 'profile', api: PROFILE },
  { name: 'admin', api: ADMIN },
  { name: 'plain', api: undefined },
];

/** What the remote's copy of auth-lib would be if it used its own (a bundled copy that sharing should not pick). */
const REMOTES_OWN_COPY = { own: true };

type Bundler = 'webpack' | 'vite';

/**
 * A remote container on the real runtime: its own ModuleFederation instance that shares auth-lib (its own copy,
 * `loaded-first`, as the Gatehouse presets build it), initialised as webpack's container entry does (the share
 * scope `init` gets) or as @module-federation/vite's does (the scope map behind `remoteEntryInitOptions`); its
 * `./App` is the auth-lib its code gets from `loadShare`, what its `import … from '@gatehouse/auth-lib'` runs.
 */
function container(name: string, bundler: Bundler, version = VERSION) {
  const instance = new ModuleFederation({
    name: `${name}_build`,
    remotes: [],
    shareStrategy: 'loaded-first',
    shared: {
      [AUTH_LIB]: {
        version,
        // as a bundler provides it: a chunk to load, not loaded yet
        get: () => Promise.resolve(() => REMOTES_OWN_COPY),
        // what the remote accepts: the shell's major (a remote that needs a newer minor is refused by the runtime)
        shareConfig: { singleton: true, requiredVersion: `^${VERSION}`, strictVersion: true },
        strategy: 'loaded-first',
      },
    },
  });
  return {
    async init(
      shareScope: Record<string, unknown>,
      initScope: unknown[],
      options: { shareScopeMap?: Record<string, Record<string, unknown>> },
    ) {
      const scope = bundler === 'vite' ? (options.shareScopeMap?.['default'] ?? shareScope) : shareScope;
      instance.initShareScopeMap('default', scope as never, { hostShareScopeMap: options.shareScopeMap ?? {} } as never);
      await Promise.all(instance.initializeSharing('default', { strategy: 'loaded-first', initScope: initScope as never }));
    },
    async get() {
      const factory = (await instance.loadShare(AUTH_LIB)) as false | (() => unknown);
      if (!factory) throw new Error('no shared auth-lib');
      const lib = factory();
      return () => ({ lib });
    },
  };
}

/** Each page a fresh set of containers: the runtime caches a remote entry by its address, page-wide. */
let pages = 0;

function shell(root: Session, bundler: Bundler, version?: string, provided: AuthLibModule = authLib) {
  pages += 1;
  const containers: Record<string, ReturnType<typeof container>> = {};
  const entries: ModuleFederationRuntimePlugin = {
    name: 'test-entries',
    loadEntry: ({ remoteInfo }: { remoteInfo: { name: string } }) =>
      (containers[remoteInfo.name] ??= container(remoteInfo.name, bundler, version)),
  } as unknown as ModuleFederationRuntimePlugin;
  const host = new ModuleFederation({
    name: 'gatehouse_shell',
    remotes: [],
    shareStrategy: 'loaded-first',
    shared: {
      [AUTH_LIB]: {
        version: VERSION,
        lib: () => provided,
        shareConfig: { singleton: true, requiredVersion: `^${VERSION}`, strictVersion: true },
        strategy: 'loaded-first',
      },
    },
    plugins: [
      entries,
      remoteAuthPlugin(
        (name, shellsModule) =>
          authModuleFor(remoteView(root, REMOTES.find((r) => r.name === name)?.api ?? null), shellsModule as AuthLibModule | undefined),
        VERSION,
      ),
    ],
  });
  host.initializeSharing('default');
  host.registerRemotes(REMOTES.map(({ name }) => ({ name, entry: `https://${name}.example.com/${pages}/remoteEntry.js` })));
  const authLibOf = async (name: string) => ((await host.loadRemote(`${name}/App`)) as { lib: AuthLibModule }).lib;
  return { host, authLibOf };
}

function audienceOf(token: string): string {
  const [, audience] = token.split(':');
  return audience ?? '(page)';
}

describe.each<Bundler>(['webpack', 'vite'])('each remote container gets its own auth-lib (%s container)', (bundler) => {
  it("getSession, whenSession, authFetch and createSession give the remote's own view: its API's token alone", async () => {
    const fetch = jest.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => ({ status: 200 }) as Response);
    const root = createTestSession({ token: 'page', fetch: fetch as unknown as typeof globalThis.fetch });
    const { authLibOf } = shell(root, bundler);
    const profile = await authLibOf('profile');
    const admin = await authLibOf('admin');

    expect(profile).not.toBe(REMOTES_OWN_COPY);
    expect(profile.getSession()).toBe(remoteView(root, PROFILE));
    expect(profile.getSession()).not.toBe(root);
    expect(await profile.whenSession()).toBe(profile.getSession());
    // the shell's session is the page's: createSession with its config gives the remote its view, not the root
    setPageSession(root);
    const { url, realm, clientId } = root.config;
    expect(profile.createSession({ url, realm, clientId })).toBe(profile.getSession());
    setPageSession(null);
    expect(audienceOf(await profile.getSession().getToken())).toBe('profile-api');
    expect(audienceOf(await admin.getSession().getToken())).toBe('admin-api');

    await profile.authFetch(PROFILE.url);
    expect(new Headers(fetch.mock.calls[0]?.[1]?.headers).get('authorization')).toBe('Bearer page:profile-api');
  });

  it("forApi of another API is refused in the remote's view, saying to name the API in the registry entry", async () => {
    const { authLibOf } = shell(createTestSession(), bundler);
    const profile = await authLibOf('profile');
    const refusal = (() => {
      try {
        profile.getSession().forApi(ADMIN);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toBeInstanceOf(AuthError);
    expect((refusal as AuthError).message).toMatch(/no token for "admin-api".*registry entry/);
    expect(profile.getSession().forApi(PROFILE)).toBe(profile.getSession());
  });

  it('a remote that names no API gets the page session, whose forApi refuses every API', async () => {
    const { authLibOf } = shell(createTestSession({ token: 'page' }), bundler);
    const plain = await authLibOf('plain');
    expect(plain.getSession().api).toBeNull();
    expect(await plain.getSession().getToken()).toBe('page');
    expect(() => plain.getSession().forApi(PROFILE)).toThrow(AuthError);
  });

  it("a remote that brings a newer auth-lib of the same major still gets the shell's, bound to its view", async () => {
    const [major] = VERSION.split('.');
    const { authLibOf } = shell(createTestSession(), bundler, `${major}.99.0`);
    const profile = await authLibOf('profile');
    expect(profile).not.toBe(REMOTES_OWN_COPY);
    expect(profile.getSession().api).toEqual(PROFILE);
  });

  it("the remote's module is made from the whole module the shell provides, not the shell's own namespace import", async () => {
    // a production build's namespace object for a consumed shared package lists only what the shell itself uses: a
    // remote's RequireRole was undefined in it (React error #130 in the reports slot)
    const whole = { ...authLib, OnlyInTheProvidedModule: 'x' } as AuthLibModule;
    const { authLibOf } = shell(createTestSession(), bundler, undefined, whole);
    const profile = (await authLibOf('profile')) as AuthLibModule & { OnlyInTheProvidedModule?: string };
    expect(profile.OnlyInTheProvidedModule).toBe('x');
    expect(profile.RequireRole).toBe(authLib.RequireRole);
  });

  it("the shell's own share scope keeps the shell's auth-lib", async () => {
    const { host, authLibOf } = shell(createTestSession(), bundler);
    await authLibOf('profile');
    const factory = (await host.loadShare(AUTH_LIB)) as () => unknown;
    expect(factory()).toBe(authLib);
  });
});

test("the remote's module keeps the rest of auth-lib (the same hooks, errors and version) and its <AuthProvider> provides the view", () => {
  const view = remoteView(createTestSession(), PROFILE);
  const module = authModuleFor(view);
  expect(module.useAuth).toBe(authLib.useAuth);
  expect(module.AuthError).toBe(authLib.AuthError);
  expect(module.VERSION).toBe(VERSION);
  expect(Object.keys(module).sort()).toEqual(Object.keys(authLib).sort());
  const element = module.AuthProvider({ children: null });
  expect((element as { props: { session: Session } }).props.session).toBe(view);
  expect(authModuleFor(view)).toBe(module);
});
