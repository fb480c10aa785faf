import type { RemoteConfig } from '../config/types';
import { describeRole, meetsAcr, missingRoles, remoteToFetchEarly, stepUpNeeded } from './access';

const alice = { realmRoles: ['user', 'admin'], clientRoles: { reports: ['viewer'] } };
const bob = { realmRoles: ['user'], clientRoles: {} };

describe('missingRoles', () => {
  it('is empty when nothing is required', () => {
    expect(missingRoles(bob, { realmRoles: [], clientRoles: {} })).toEqual([]);
  });

  it('is empty when the visitor holds every required role', () => {
    expect(missingRoles(alice, { realmRoles: ['admin'], clientRoles: { reports: ['viewer'] } })).toEqual([]);
  });

  it('names the missing realm and client roles', () => {
    expect(missingRoles(bob, { realmRoles: ['admin'], clientRoles: { reports: ['viewer'] } })).toEqual([
      { kind: 'realm', role: 'admin' },
      { kind: 'client', client: 'reports', role: 'viewer' },
    ]);
  });

  it('does not take a role of one client for the same role of another', () => {
    const other = { realmRoles: [], clientRoles: { billing: ['viewer'] } };
    expect(missingRoles(other, { realmRoles: [], clientRoles: { reports: ['viewer'] } })).toHaveLength(1);
  });

  it('does not take a client role for a realm role of the same name', () => {
    const viewer = { realmRoles: [], clientRoles: { reports: ['admin'] } };
    expect(missingRoles(viewer, { realmRoles: ['admin'], clientRoles: {} })).toEqual([{ kind: 'realm', role: 'admin' }]);
  });
});

describe('describeRole', () => {
  it('says which kind of role is missing', () => {
    expect(describeRole({ kind: 'realm', role: 'admin' })).toBe('realm role "admin"');
    expect(describeRole({ kind: 'client', client: 'reports', role: 'viewer' })).toBe('client role "viewer" of client "reports"');
  });
});

describe('remoteToFetchEarly', () => {
  const remote = (name: string, extra: Partial<RemoteConfig> = {}): RemoteConfig => ({
    name,
    manifest: `http://localhost/${name}/mf-manifest.json`,
    module: './App',
    route: `/${name}`,
    title: name,
    realmRoles: [],
    clientRoles: {},
    ...extra,
  });
  const remotes = [
    remote('profile'),
    remote('admin', { realmRoles: ['admin'] }),
    remote('reports', { clientRoles: { reports: ['viewer'] } }),
    remote('vault', { acr: 'gold' }),
  ];

  it('is the remote of a route that needs only a signed-in visitor, at its path or below', () => {
    expect(remoteToFetchEarly(remotes, '/profile')?.name).toBe('profile');
    expect(remoteToFetchEarly(remotes, '/profile/settings')?.name).toBe('profile');
  });

  it('is null for routes that need roles, for other paths and for look-alike prefixes', () => {
    expect(remoteToFetchEarly(remotes, '/admin')).toBeNull();
    expect(remoteToFetchEarly(remotes, '/reports/x')).toBeNull();
    expect(remoteToFetchEarly(remotes, '/')).toBeNull();
    expect(remoteToFetchEarly(remotes, '/profiles')).toBeNull();
  });

  it('is null for a route that needs a level of authentication (a step-up page must not have fetched it)', () => {
    expect(remoteToFetchEarly(remotes, '/vault')).toBeNull();
  });
});

describe('meetsAcr and stepUpNeeded', () => {
  it("a level name is met by the same name only (the shell does not know the realm's acr.loa.map)", () => {
    expect(meetsAcr('gold', 'gold')).toBe(true);
    expect(meetsAcr('silver', 'gold')).toBe(false);
    expect(meetsAcr('1', 'gold')).toBe(false);
  });

  it('level numbers compare as numbers', () => {
    expect(meetsAcr('2', '2')).toBe(true);
    expect(meetsAcr('3', '2')).toBe(true);
    expect(meetsAcr('10', '2')).toBe(true);
    expect(meetsAcr('1', '2')).toBe(false);
    expect(meetsAcr('0', '1')).toBe(false);
  });

  it('a session without an acr meets nothing', () => {
    expect(meetsAcr(null, '0')).toBe(false);
  });

  it('names the level to step up to, or null when the remote needs none or the session has it', () => {
    expect(stepUpNeeded({ acr: 'silver' }, { acr: 'gold' })).toBe('gold');
    expect(stepUpNeeded({ acr: 'gold' }, { acr: 'gold' })).toBeNull();
    expect(stepUpNeeded({ acr: null }, {})).toBeNull();
  });
});
