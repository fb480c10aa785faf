import { validateConfig } from './validate';

const identityProvider = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };
const profile = { name: 'profile', manifest: 'http://localhost:3001/mf-manifest.json', route: '/profile', title: 'Profile' };

function problemsOf(raw: unknown): readonly string[] {
  const result = validateConfig(raw);
  return result.ok ? [] : result.problems;
}

describe('validateConfig', () => {
  it('accepts the dev config and fills in defaults', () => {
    const result = validateConfig({
      identityProvider,
      remotes: [profile, { name: 'reports', manifest: '/reports/mf-manifest.json', route: '/reports', title: 'Reports', clientRoles: { reports: ['viewer'] } }],
    });
    expect(result).toEqual({
      ok: true,
      config: {
        identityProvider,
        remotes: [
          { ...profile, module: './App', realmRoles: [], clientRoles: {} },
          { name: 'reports', manifest: '/reports/mf-manifest.json', module: './App', route: '/reports', title: 'Reports', realmRoles: [], clientRoles: { reports: ['viewer'] } },
        ],
      },
    });
  });

  it('accepts an empty registry', () => {
    expect(validateConfig({ identityProvider, remotes: [] }).ok).toBe(true);
  });

  it('refuses something that is not an object', () => {
    expect(problemsOf(null)).toEqual(['The config must be a JSON object with "identityProvider" and "remotes".']);
    expect(problemsOf([])).toHaveLength(1);
  });

  it('lists every problem of the identity provider at once', () => {
    const problems = problemsOf({ identityProvider: { url: 'localhost:8080', realm: '' }, remotes: [] });
    expect(problems).toEqual([
      '"identityProvider".url must be an absolute http(s) URL such as "http://localhost:8080".',
      '"identityProvider".realm must be a non-empty string.',
      '"identityProvider".clientId must be a non-empty string.',
    ]);
  });

  it('names the remote and the field that is wrong', () => {
    const problems = problemsOf({ identityProvider, remotes: [{ ...profile, name: 'my-profile', route: 'profile/', realmRoles: 'admin' }] });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^remotes\[0\] \("my-profile"\)\.name must be the remote's federation name/);
    expect(problems[1]).toMatch(/\.route must be a path such as "\/profile"/);
    expect(problems[2]).toMatch(/\.realmRoles must be an array of role names/);
  });

  it('refuses a manifest that is neither a URL nor a path', () => {
    expect(problemsOf({ identityProvider, remotes: [{ ...profile, manifest: 'profile.json' }] })[0]).toMatch(/manifest must be the URL/);
  });

  it('refuses unknown keys, so a misspelt role requirement is not silently dropped', () => {
    expect(problemsOf({ identityProvider, remotes: [{ ...profile, realmRole: ['admin'] }] })).toEqual([
      'remotes[0] ("profile") has an unknown key "realmRole" (known: name, manifest, module, route, title, realmRoles, clientRoles).',
    ]);
  });

  it('refuses client roles that are not lists', () => {
    expect(problemsOf({ identityProvider, remotes: [{ ...profile, clientRoles: { reports: 'viewer' } }] })[0]).toMatch(/clientRoles must map client ids/);
  });

  it('refuses two remotes with the same name or route', () => {
    const problems = problemsOf({ identityProvider, remotes: [profile, { ...profile }] });
    expect(problems).toEqual([
      'Two remotes are named "profile"; names must be unique.',
      'Two remotes own the route "/profile"; routes must be unique.',
    ]);
  });

  it('leaves remote overrides off unless the config turns them on', () => {
    const result = validateConfig({ identityProvider, remotes: [] });
    expect(result.ok && result.config.overrides).toBeUndefined();
  });

  it('accepts remote overrides for listed origins, with a port or any port', () => {
    const overrides = { allowedOrigins: ['http://localhost:3005', 'http://localhost:*', 'https://dev.example.com'] };
    const result = validateConfig({ identityProvider, remotes: [], overrides });
    expect(result.ok && result.config.overrides).toEqual(overrides);
  });

  it('refuses override origins with a path, a wildcard host or no scheme, and unknown override keys', () => {
    for (const allowedOrigins of [['http://localhost:3005/'], ['https://*.example.com'], ['localhost:3005'], [], 'http://localhost:*']) {
      expect(problemsOf({ identityProvider, remotes: [], overrides: { allowedOrigins } })).toEqual([
        '"overrides".allowedOrigins must be a non-empty array of origins such as "http://localhost:3005" or "http://localhost:*" (scheme, host, optional port; no path).',
      ]);
    }
    expect(problemsOf({ identityProvider, remotes: [], overrides: { allowedOrigins: ['http://localhost:*'], origins: [] } })[0]).toMatch(
      /^"overrides" has an unknown key "origins"/,
    );
    expect(problemsOf({ identityProvider, remotes: [], overrides: true })[0]).toMatch(/^"overrides" must be an object/);
  });

  it('refuses a missing registry', () => {
    expect(problemsOf({ identityProvider })).toEqual(['"remotes" must be an array (it may be empty).']);
  });
});

test('the session keys: expiryWarningSeconds and idleTimeoutMinutes pass through, wrong values are named', () => {
  const base = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };
  const ok = validateConfig({ identityProvider: { ...base, expiryWarningSeconds: 30, idleTimeoutMinutes: 15 }, remotes: [] });
  expect(ok).toMatchObject({ ok: true, config: { identityProvider: { expiryWarningSeconds: 30, idleTimeoutMinutes: 15 } } });
  const bad = validateConfig({ identityProvider: { ...base, expiryWarningSeconds: 0, idleTimeoutMinutes: 'ten' }, remotes: [] });
  expect(bad.ok).toBe(false);
  expect(!bad.ok && bad.problems.join('\n')).toMatch(/expiryWarningSeconds must be a positive number[\s\S]*idleTimeoutMinutes must be a number of minutes/);
});
