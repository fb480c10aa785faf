import { sessionConfigOf } from './sessionConfig';
import type { RemoteConfig } from './types';

const identityProvider = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };
const remote = (name: string, scope?: string): RemoteConfig => ({
  name,
  manifest: `http://localhost:3001/${name}/mf-manifest.json`,
  module: './App',
  route: `/${name}`,
  title: name,
  realmRoles: [],
  clientRoles: {},
  ...(scope ? { api: { url: `http://localhost:3010/${name}`, audience: `${name}-api`, scope } } : {}),
});

test("signs in with config.json's scopes and every remote API's scope, each once", () => {
  const config = sessionConfigOf({
    identityProvider: { ...identityProvider, scopes: ['role-audiences', 'profile-api'] },
    remotes: [remote('profile', 'profile-api'), remote('admin', 'admin-api'), remote('plain'), remote('reports', 'reports-api')],
  });
  expect(config.scopes).toEqual(['role-audiences', 'profile-api', 'admin-api', 'reports-api']);
  expect(config).toMatchObject(identityProvider);
  // the registry's APIs: what the leading tab serves other tabs (decisions/0108)
  expect(config.apis?.map((api) => api.audience)).toEqual(['profile-api', 'admin-api', 'reports-api']);
});

test('without APIs or scopes, the identity provider config and an empty API list (no tab serves any API token)', () => {
  const config = { identityProvider, remotes: [remote('plain')] };
  expect(sessionConfigOf(config)).toEqual({ ...identityProvider, apis: [] });
});

test("config.json's sessionEvents goes to the session as it is; absent, the session has none (the push is off)", () => {
  const sessionEvents = { url: 'https://events.example.com' };
  expect(sessionConfigOf({ identityProvider, remotes: [], sessionEvents }).sessionEvents).toEqual(sessionEvents);
  expect(sessionConfigOf({ identityProvider, remotes: [] })).not.toHaveProperty('sessionEvents');
});
