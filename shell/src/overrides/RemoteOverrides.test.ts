import type { ShellConfig } from '../config/types';
import { clearOverrides, originAllowed, OVERRIDES_STORAGE_KEY, resolveOverrides, type OverrideStorage } from './RemoteOverrides';

const profile = {
  name: 'profile',
  manifest: 'http://localhost:3001/mf-manifest.json',
  module: './App',
  route: '/profile',
  title: 'Profile',
  realmRoles: [],
  clientRoles: {},
};
const admin = { ...profile, name: 'admin', manifest: 'http://localhost:3002/mf-manifest.json', route: '/admin', title: 'Admin' };
const identityProvider = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };
const on: ShellConfig = {
  identityProvider,
  remotes: [profile, admin],
  overrides: { allowedOrigins: ['http://localhost:*', 'https://dev.example.com'] },
};
const off: ShellConfig = { identityProvider, remotes: [profile, admin] };

function memoryStorage(initial: Record<string, string> = {}): OverrideStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe('resolveOverrides', () => {
  it("runs an overridden remote's code unverified, the visitor's opt-in, and says so; the others keep their pinned keys", () => {
    const key = { kty: 'EC', crv: 'P-256', x: 'x'.repeat(43), y: 'y'.repeat(43) } as const;
    const pinned: ShellConfig = {
      ...on,
      remotes: [
        { ...profile, signingKeys: [key] },
        { ...admin, signingKeys: [key] },
      ],
    };
    const result = resolveOverrides(pinned, '?remote.profile=http://localhost:3005/mf-manifest.json', memoryStorage());
    expect(result.remotes.map((r) => ({ name: r.name, keys: r.signingKeys?.length ?? 0 }))).toEqual([
      { name: 'profile', keys: 0 },
      { name: 'admin', keys: 1 },
    ]);
    expect(result.active).toEqual([expect.objectContaining({ name: 'profile', unverified: true })]);
  });

  it('loads a registered remote from an allowed origin and keeps the URL for the tab', () => {
    const storage = memoryStorage();
    const result = resolveOverrides(on, '?remote.profile=http://localhost:3005/mf-manifest.json&tab=2', storage);
    expect(result.remotes.map((r) => r.manifest)).toEqual(['http://localhost:3005/mf-manifest.json', admin.manifest]);
    expect(result.active).toEqual([
      { name: 'profile', manifest: 'http://localhost:3005/mf-manifest.json', registered: profile.manifest, unverified: false },
    ]);
    expect(result.refused).toEqual([]);
    expect(result.cleanedSearch).toBe('?tab=2');
    expect(JSON.parse(storage.items.get(OVERRIDES_STORAGE_KEY) ?? '')).toEqual({ profile: 'http://localhost:3005/mf-manifest.json' });
  });

  it('applies what the tab kept from before when the URL no longer says it', () => {
    const storage = memoryStorage({ [OVERRIDES_STORAGE_KEY]: JSON.stringify({ admin: 'https://dev.example.com/admin/mf-manifest.json' }) });
    const result = resolveOverrides(on, '', storage);
    expect(result.remotes[1]?.manifest).toBe('https://dev.example.com/admin/mf-manifest.json');
    expect(result.cleanedSearch).toBeNull();
  });

  it('refuses an origin that is not allowed, visibly, and keeps nothing of it', () => {
    const storage = memoryStorage();
    const result = resolveOverrides(on, '?remote.profile=https://evil.example/mf-manifest.json', storage);
    expect(result.remotes[0]?.manifest).toBe(profile.manifest);
    expect(result.refused).toEqual([
      {
        name: 'profile',
        manifest: 'https://evil.example/mf-manifest.json',
        reason: 'https://evil.example is not an allowed origin (allowed: http://localhost:*, https://dev.example.com).',
      },
    ]);
    expect(storage.items.has(OVERRIDES_STORAGE_KEY)).toBe(false);
  });

  it('refuses everything when the config does not turn overrides on, and forgets what was kept', () => {
    const storage = memoryStorage({ [OVERRIDES_STORAGE_KEY]: JSON.stringify({ profile: 'http://localhost:3005/mf-manifest.json' }) });
    const result = resolveOverrides(off, '?remote.profile=http://localhost:3005/mf-manifest.json', storage);
    expect(result.remotes).toEqual(off.remotes);
    expect(result.refused[0]?.reason).toMatch(/remote overrides are off for this environment/);
    expect(storage.items.has(OVERRIDES_STORAGE_KEY)).toBe(false);
  });

  it('refuses an unknown remote and a URL that is not http(s)', () => {
    const result = resolveOverrides(
      on,
      '?remote.billing=http://localhost:3005/mf-manifest.json&remote.admin=javascript:alert(1)',
      memoryStorage(),
    );
    expect(result.refused.map((r) => [r.name, r.reason])).toEqual([
      [
        'billing',
        'there is no remote named "billing" in the registry (profile, admin). An override only moves a registered remote: have "billing" added to this environment\'s config.json, or, on a shell you run with npm start, add it to shell/config.local.json (docs/remote-teams.md).',
      ],
      ['admin', 'the manifest must be an absolute http(s) URL such as http://localhost:3005/mf-manifest.json.'],
    ]);
  });

  it('clears one override with an empty value, and all of them with clearOverrides', () => {
    const storage = memoryStorage({
      [OVERRIDES_STORAGE_KEY]: JSON.stringify({
        profile: 'http://localhost:3005/mf-manifest.json',
        admin: 'http://localhost:3006/mf-manifest.json',
      }),
    });
    expect(resolveOverrides(on, '?remote.profile=', storage).active.map((o) => o.name)).toEqual(['admin']);
    clearOverrides(storage);
    expect(resolveOverrides(on, '', storage).active).toEqual([]);
  });

  it('survives unreadable storage', () => {
    expect(resolveOverrides(on, '', memoryStorage({ [OVERRIDES_STORAGE_KEY]: '{not json' })).active).toEqual([]);
  });
});

describe('originAllowed', () => {
  it('matches exact origins and any port of a host, never another scheme or host', () => {
    expect(originAllowed('http://localhost:3005/x', ['http://localhost:3005'])).toBe(true);
    expect(originAllowed('http://localhost:3006/x', ['http://localhost:3005'])).toBe(false);
    expect(originAllowed('http://localhost:4321/x', ['http://localhost:*'])).toBe(true);
    expect(originAllowed('https://localhost:4321/x', ['http://localhost:*'])).toBe(false);
    expect(originAllowed('http://localhost.evil.example/x', ['http://localhost:*'])).toBe(false);
    expect(originAllowed('https://dev.example.com/x', ['https://dev.example.com'])).toBe(true);
    expect(originAllowed('https://dev.example.com:8443/x', ['https://dev.example.com'])).toBe(false);
  });
});
