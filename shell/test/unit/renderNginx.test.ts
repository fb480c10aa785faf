import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { tempDir } from './support/tempDir';

// deploy/nginx/render.mjs validates with the same schema as the shell: run it the way a deployment does.
const RENDER = resolve(__dirname, '../../../deploy/nginx/render.mjs');
const identityProvider = { url: 'https://sso.example.com', realm: 'gatehouse', clientId: 'gatehouse-shell' };
const profile = { name: 'profile', manifest: 'https://profile.example.com/mf-manifest.json', route: '/profile', title: 'Profile' };

function render(config: unknown, csp?: unknown): { status: number | null; stderr: string; shellConf: string | null } {
  const dir = tempDir('render-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const shell = { origin: 'https://app.example.com', listen: 443, serverName: 'app.example.com', root: dir };
  writeFileSync(join(dir, 'deployment.json'), JSON.stringify({ configFile: 'config.json', shell, ...(csp ? { csp } : {}) }));
  const run = spawnSync(process.execPath, [RENDER, join(dir, 'deployment.json'), join(dir, 'out')], { encoding: 'utf8' });
  const shellConf = existsSync(join(dir, 'out/shell.conf')) ? readFileSync(join(dir, 'out/shell.conf'), 'utf8') : null;
  return { status: run.status, stderr: run.stderr, shellConf };
}

test('renders the CSP of a valid config, with its trusted origins and CSP additions', () => {
  const result = render(
    { identityProvider: { ...identityProvider, trustedOrigins: ['https://api.example.com'] }, remotes: [profile] },
    { imgSrc: ['https://img.example.com'] },
  );
  expect(result.status).toBe(0);
  expect(result.shellConf).toMatch(
    /connect-src 'self' https:\/\/profile\.example\.com https:\/\/sso\.example\.com https:\/\/api\.example\.com;/,
  );
  expect(result.shellConf).toMatch(/img-src 'self' data: https:\/\/profile\.example\.com https:\/\/img\.example\.com;/);
});

test("a remote's api origin is in the shell's connect-src and in that remote's own page's, not in the others'", () => {
  const dir = tempDir('render-');
  const api = { url: 'https://api.example.com/profile', audience: 'profile-api', scope: 'profile-api' };
  const reports = { name: 'reports', manifest: 'https://reports.example.com/mf-manifest.json', route: '/reports', title: 'Reports' };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ identityProvider, remotes: [{ ...profile, api }, reports] }));
  const shell = { origin: 'https://app.example.com', listen: 443, serverName: 'app.example.com', root: dir };
  const remote = (name: string) => ({ name, listen: 443, serverName: `${name}.example.com`, root: dir });
  writeFileSync(
    join(dir, 'deployment.json'),
    JSON.stringify({ configFile: 'config.json', shell, remotes: [remote('profile'), remote('reports')] }),
  );

  const run = spawnSync(process.execPath, [RENDER, join(dir, 'deployment.json'), join(dir, 'out')], { encoding: 'utf8' });

  expect(run.stderr).toBe('');
  const conf = (file: string) => readFileSync(join(dir, 'out', file), 'utf8');
  expect(conf('shell.conf')).toMatch(
    /connect-src 'self' https:\/\/profile\.example\.com https:\/\/reports\.example\.com https:\/\/sso\.example\.com https:\/\/api\.example\.com;/,
  );
  expect(conf('remote-profile.conf')).toMatch(/connect-src 'self' https:\/\/sso\.example\.com https:\/\/api\.example\.com;/);
  expect(conf('remote-reports.conf')).toMatch(/connect-src 'self' https:\/\/sso\.example\.com;/);
});

test.each([
  [
    'a manifest a browser resolves to another origin',
    { identityProvider, remotes: [{ ...profile, manifest: '/\\evil.com/mf-manifest.json' }] },
    undefined,
    'config.json: remotes[0] ("profile").manifest must be',
  ],
  [
    'a wildcard trusted origin',
    { identityProvider: { ...identityProvider, trustedOrigins: ['https://*.example.com'] }, remotes: [] },
    undefined,
    'config.json: identityProvider.trustedOrigins[0] must be an origin',
  ],
  [
    'a trusted origin with a path',
    { identityProvider: { ...identityProvider, trustedOrigins: ['https://api.example.com/v1'] }, remotes: [] },
    undefined,
    'config.json: identityProvider.trustedOrigins[0] must be an origin',
  ],
  [
    'an override origin with port 99999',
    { identityProvider, remotes: [], overrides: { allowedOrigins: ['http://localhost:99999'] } },
    undefined,
    'config.json: overrides.allowedOrigins must be',
  ],
  [
    'a CSP source that injects a directive',
    { identityProvider, remotes: [] },
    { connectSrc: ["https://x.example.com; script-src 'unsafe-inline'"] },
    'deployment: csp.connectSrc[0] must be one CSP source',
  ],
])('refuses %s, naming the field, and writes nothing', (_, config, csp, problem) => {
  const result = render(config, csp);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(problem);
  expect(result.shellConf).toBeNull();
});
