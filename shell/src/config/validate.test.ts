import { acceptsShellConfig } from '@gatehouse/config/accepts';
import { validateShellConfig } from '@gatehouse/config/validate';
import { validateConfig as validateConfigOf } from './validate';

/** validateConfig, and each config checked by the first page's check too: it must give the schema's verdict. */
function validateConfig(raw: unknown): ReturnType<typeof validateConfigOf> {
  expect(acceptsShellConfig(raw)).toBe(validateShellConfig(raw));
  return validateConfigOf(raw);
}

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
      remotes: [
        profile,
        {
          name: 'reports',
          manifest: '/reports/mf-manifest.json',
          route: '/reports',
          title: 'Reports',
          clientRoles: { reports: ['viewer'] },
        },
      ],
    });
    expect(result).toEqual({
      ok: true,
      config: {
        identityProvider,
        remotes: [
          { ...profile, module: './App', realmRoles: [], clientRoles: {} },
          {
            name: 'reports',
            manifest: '/reports/mf-manifest.json',
            module: './App',
            route: '/reports',
            title: 'Reports',
            realmRoles: [],
            clientRoles: { reports: ['viewer'] },
          },
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

  it('lists every problem of the identity provider at once, naming each field', () => {
    const problems = problemsOf({ identityProvider: { url: 'localhost:8080', realm: '' }, remotes: [] });
    expect(problems).toEqual([
      'identityProvider.clientId is missing (see config.schema.json).',
      'identityProvider.url must be the provider\'s absolute http(s) base URL without "/realms/…", e.g. "http://localhost:8080"; it is "localhost:8080".',
      'identityProvider.realm must be the realm name, e.g. "gatehouse"; it is "".',
    ]);
  });

  it("accepts every option of auth-lib's session config", () => {
    const options = {
      trustedOrigins: ['https://api.example.com'],
      checkLoginIframeInterval: 5,
      messageReceiveTimeout: 10000,
      minValidity: 30,
      timeout: 5000,
    };
    const result = validateConfig({ identityProvider: { ...identityProvider, ...options }, remotes: [] });
    expect(result.ok && result.config.identityProvider).toEqual({ ...identityProvider, ...options });
  });

  it.each([
    ['a path', 'https://api.example.com/v1'],
    ['a wildcard host', 'https://*.example.com'],
    ['no scheme', 'api.example.com'],
  ])('refuses a trusted origin with %s', (_, origin) => {
    expect(problemsOf({ identityProvider: { ...identityProvider, trustedOrigins: [origin] }, remotes: [] })).toEqual([
      `identityProvider.trustedOrigins[0] must be an origin (scheme, host, optional port; no path, no wildcard), e.g. "https://api.example.com"; it is "${origin}".`,
    ]);
  });

  it('names the remote and the field that is wrong', () => {
    const problems = problemsOf({
      identityProvider,
      remotes: [{ ...profile, name: 'my-profile', route: 'profile/', realmRoles: 'admin' }],
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^remotes\[0\] \("my-profile"\)\.name must be the remote's federation name/);
    expect(problems[1]).toMatch(/^remotes\[0\] \("my-profile"\)\.route must be a path such as "\/profile"/);
    expect(problems[2]).toMatch(/^remotes\[0\] \("my-profile"\)\.realmRoles must be an array of role names/);
  });

  it.each([
    'profile.json',
    '/\\evil.com/mf-manifest.json',
    '//evil.com/mf-manifest.json',
    'https://profile.example.com\\@evil.com/mf-manifest.json',
  ])("refuses the manifest %s, which is not a URL or would leave the shell's origin", (manifest) => {
    expect(problemsOf({ identityProvider, remotes: [{ ...profile, manifest }] })).toEqual([
      `remotes[0] ("profile").manifest must be the URL of the remote's mf-manifest.json: absolute http(s) ("https://profile.example.com/mf-manifest.json") or a path on the shell's origin ("/remotes/profile/mf-manifest.json"); no backslashes, no "//" at the start; it is ${JSON.stringify(manifest)}.`,
    ]);
  });

  it("accepts a manifest on the shell's own origin", () => {
    expect(validateConfig({ identityProvider, remotes: [{ ...profile, manifest: '/remotes/profile/mf-manifest.json' }] }).ok).toBe(true);
  });

  it('refuses unknown keys, so a misspelt role requirement is not silently dropped', () => {
    expect(problemsOf({ identityProvider, remotes: [{ ...profile, realmRole: ['admin'] }] })).toEqual([
      'remotes[0] ("profile") has an unknown key "realmRole": check its spelling against config.schema.json.',
    ]);
  });

  it('refuses client roles that are not lists', () => {
    expect(problemsOf({ identityProvider, remotes: [{ ...profile, clientRoles: { reports: 'viewer' } }] })[0]).toMatch(
      /^remotes\[0\] \("profile"\)\.clientRoles\.reports must be an array of role names/,
    );
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

  it('refuses override origins with a path, a wildcard host, no scheme or a port out of range, and unknown override keys', () => {
    for (const allowedOrigins of [
      ['http://localhost:3005/'],
      ['https://*.example.com'],
      ['localhost:3005'],
      ['http://localhost:99999'],
      [],
      'http://localhost:*',
    ]) {
      expect(problemsOf({ identityProvider, remotes: [], overrides: { allowedOrigins } })).toEqual([
        expect.stringMatching(
          /^overrides\.allowedOrigins must be a non-empty array of origins such as "http:\/\/localhost:3005" or "http:\/\/localhost:\*" \(scheme, host, optional port 1–65535 or \*; no path, no wildcard host\)/,
        ),
      ]);
    }
    expect(problemsOf({ identityProvider, remotes: [], overrides: { allowedOrigins: ['http://localhost:*'], origins: [] } })).toEqual([
      'overrides has an unknown key "origins": check its spelling against config.schema.json.',
    ]);
    expect(problemsOf({ identityProvider, remotes: [], overrides: true })[0]).toMatch(/^overrides must be an object/);
  });

  it('keeps the session-events service when the config names one, and refuses a URL with a query or another key', () => {
    const sessionEvents = { url: 'https://events.example.com/gatehouse' };
    const result = validateConfig({ identityProvider, remotes: [], sessionEvents });
    expect(result.ok && result.config.sessionEvents).toEqual(sessionEvents);
    const off = validateConfig({ identityProvider, remotes: [] });
    expect(off.ok && off.config.sessionEvents).toBeUndefined();
    expect(problemsOf({ identityProvider, remotes: [], sessionEvents: { url: 'https://events.example.com/?access_token=x' } })).toEqual([
      expect.stringMatching(/^sessionEvents\.url must be the service's absolute http\(s\) URL without a query or fragment/),
    ]);
    expect(problemsOf({ identityProvider, remotes: [], sessionEvents: { url: 'https://events.example.com', token: 'x' } })).toEqual([
      expect.stringMatching(/^sessionEvents takes only "url"/),
    ]);
    expect(problemsOf({ identityProvider, remotes: [], sessionEvents: {} })).toEqual([expect.stringMatching(/^sessionEvents needs "url"/)]);
  });

  it("accepts the session settings and a remote's authentication level, and refuses wrong ones", () => {
    const session = { idleTimeoutMinutes: 30, expiryWarningSeconds: 60 };
    const result = validateConfig({ identityProvider: { ...identityProvider, ...session }, remotes: [{ ...profile, acr: 'gold' }] });
    expect(result.ok && result.config.identityProvider).toMatchObject(session);
    expect(result.ok && result.config.remotes[0]?.acr).toBe('gold');
    expect(problemsOf({ identityProvider: { ...identityProvider, idleTimeoutMinutes: 0 }, remotes: [] })).toEqual([
      'identityProvider.idleTimeoutMinutes must be a positive number of minutes; it is 0.',
    ]);
  });

  it('refuses a missing registry', () => {
    expect(problemsOf({ identityProvider })).toEqual(['remotes is missing (see config.schema.json).']);
    expect(problemsOf({ identityProvider, remotes: {} })).toEqual(['remotes must be an array of remotes (it may be empty).']);
  });
});

test('the session keys: expiryWarningSeconds and idleTimeoutMinutes pass through, wrong values are named', () => {
  const base = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };
  const ok = validateConfig({ identityProvider: { ...base, expiryWarningSeconds: 30, idleTimeoutMinutes: 15 }, remotes: [] });
  expect(ok).toMatchObject({ ok: true, config: { identityProvider: { expiryWarningSeconds: 30, idleTimeoutMinutes: 15 } } });
  const bad = validateConfig({ identityProvider: { ...base, expiryWarningSeconds: 0, idleTimeoutMinutes: 'ten' }, remotes: [] });
  expect(bad.ok).toBe(false);
  expect(!bad.ok && bad.problems.join('\n')).toMatch(
    /expiryWarningSeconds must be a positive number[\s\S]*idleTimeoutMinutes must be a positive number of minutes/,
  );
});

test('sessionWatchSeconds passes through (0 turns the checks off); a negative or non-number value is named', () => {
  const base = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };
  for (const sessionWatchSeconds of [0, 20]) {
    const ok = validateConfig({ identityProvider: { ...base, sessionWatchSeconds }, remotes: [] });
    expect(ok).toMatchObject({ ok: true, config: { identityProvider: { sessionWatchSeconds } } });
  }
  for (const sessionWatchSeconds of [-5, 'fifteen']) {
    const bad = validateConfig({ identityProvider: { ...base, sessionWatchSeconds }, remotes: [] });
    expect(!bad.ok && bad.problems.join('\n')).toMatch(/identityProvider\.sessionWatchSeconds must be a number of seconds, 0 or more/);
  }
});
