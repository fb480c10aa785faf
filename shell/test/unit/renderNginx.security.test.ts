// Security round: what deploy/nginx/render.mjs refuses and adds, run the way a deployment runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { tempDir } from './support/tempDir';

const RENDER = resolve(__dirname, '../../../deploy/nginx/render.mjs');
const identityProvider = { url: 'https://sso.example.com', realm: 'gatehouse', clientId: 'gatehouse-shell' };
const profile = { name: 'profile', manifest: 'https://profile.example.com/mf-manifest.json', route: '/profile', title: 'Profile' };

function render(config: unknown, options: { production?: boolean; origin?: string; rawConfig?: Buffer } = {}) {
  const dir = tempDir('render-security-');
  writeFileSync(join(dir, 'config.json'), options.rawConfig ?? JSON.stringify(config));
  const origin = options.origin ?? 'https://app.example.com';
  const shell = { origin, listen: origin.startsWith('https:') ? '443 ssl' : 80, serverName: 'app.example.com', root: dir };
  writeFileSync(join(dir, 'deployment.json'), JSON.stringify({ configFile: 'config.json', shell }));
  const args = [RENDER, ...(options.production ? ['--production'] : []), join(dir, 'deployment.json'), join(dir, 'out')];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const shellConf = existsSync(join(dir, 'out/shell.conf')) ? readFileSync(join(dir, 'out/shell.conf'), 'utf8') : null;
  return { status: run.status, stderr: run.stderr, shellConf };
}

test('--production refuses an http identity provider, http code origins and overrides, naming each, and writes nothing', () => {
  const result = render(
    {
      identityProvider: { ...identityProvider, url: 'http://sso.example.com' },
      remotes: [{ ...profile, manifest: 'http://profile.example.com/mf-manifest.json' }],
      overrides: { allowedOrigins: ['http://localhost:*'] },
    },
    { production: true },
  );
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('config.json identityProvider.url is "http://sso.example.com": production needs https.');
  expect(result.stderr).toContain(
    'config.json remote "profile" manifest is "http://profile.example.com/mf-manifest.json": production needs https.',
  );
  expect(result.stderr).toContain('config.json has "overrides"');
  expect(result.shellConf).toBeNull();
});

test('--production refuses a shell served over http', () => {
  const result = render({ identityProvider, remotes: [profile] }, { production: true, origin: 'http://app.example.com' });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('shell.origin is "http://app.example.com": production needs https.');
});

test('--production renders an https deployment with Permissions-Policy and Strict-Transport-Security', () => {
  const result = render({ identityProvider, remotes: [profile] }, { production: true });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.shellConf).toContain(
    'add_header Permissions-Policy "camera=(), microphone=(), geolocation=(), payment=(), usb=()" always;',
  );
  expect(result.shellConf).toContain('add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;');
});

test('a deployment over http gets Permissions-Policy but no Strict-Transport-Security (a browser would ignore it)', () => {
  const result = render({ identityProvider, remotes: [profile] }, { origin: 'http://app.example.com' });
  expect(result.status).toBe(0);
  expect(result.shellConf).toContain('add_header Permissions-Policy ');
  expect(result.shellConf).not.toContain('add_header Strict-Transport-Security');
});

test('a config.json with invalid UTF-8 inside a string is refused with a clear error, not rendered with "\uFFFD"', () => {
  const json = Buffer.from(JSON.stringify({ identityProvider, remotes: [{ ...profile, title: 'Pro#file' }] }));
  const raw = Buffer.concat([json.subarray(0, json.indexOf('#')), Buffer.from([0xff]), json.subarray(json.indexOf('#') + 1)]);
  const result = render(null, { rawConfig: raw });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/config\.json is not valid UTF-8: save it as UTF-8/);
  expect(result.shellConf).toBeNull();
});

// Security round three: every value render.mjs writes into nginx syntax is checked against its grammar.
function renderDescription(description: Record<string, unknown>, production = false) {
  const dir = tempDir('render-security-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ identityProvider, remotes: [profile] }));
  const shell = { origin: 'https://app.example.com', listen: '443 ssl', serverName: 'app.example.com', root: dir };
  const full = { configFile: 'config.json', ...description, shell: { ...shell, ...(description.shell as object) } };
  writeFileSync(join(dir, 'deployment.json'), JSON.stringify(full));
  const args = [RENDER, ...(production ? ['--production'] : []), join(dir, 'deployment.json'), join(dir, 'out')];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr, written: existsSync(join(dir, 'out/shell.conf')) };
}

const injection = '; location /leak/ { alias /etc/; autoindex on; } #';

test.each([
  ['shell.serverName', { shell: { serverName: `portal.acme.test${injection}` } }],
  ['shell: "listen"', { shell: { listen: `443 ssl${injection}` } }],
  ['shell: "listen"', { shell: { listen: ['443 ssl', `[::]:443${injection}`] } }],
  ['shell.root', { shell: { root: `/srv/shell${injection}` } }],
  ['servedConfigFile (or configFile)', { servedConfigFile: `/etc/gatehouse/config.json${injection}` }],
  ['servedConfigFile (or configFile)', { servedConfigFile: '/etc/gatehouse/$config.json' }],
  ['servedConfigFile (or configFile)', { servedConfigFile: 'config.json' }],
  ['shell: "directives"[0]', { shell: { directives: [`ssl_certificate /etc/ssl/app.pem; } server { listen 81`] } }],
  ['remote profile serverName', { remotes: [{ name: 'profile', listen: 443, serverName: `p.test${injection}`, root: '/srv/p' }] }],
  ['remote profile root', { remotes: [{ name: 'profile', listen: 443, serverName: 'p.test', root: `/srv/p"${injection}` }] }],
  [
    'identityProvider.serverName',
    { identityProvider: { listen: 443, serverName: `sso.test${injection}`, upstream: 'http://127.0.0.1:8080' } },
  ],
  [
    'identityProvider.upstream',
    { identityProvider: { listen: 443, serverName: 'sso.test', upstream: `http://127.0.0.1:8080${injection}` } },
  ],
])('a value that would inject nginx directives is refused, naming %s, and nothing is written', (field, description) => {
  const result = renderDescription(description);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(field);
  expect(result.stderr).toMatch(/Use |Give /);
  expect(result.written).toBe(false);
});

test('the documented forms of listen, server_name and paths still render', () => {
  const result = renderDescription({
    servedConfigFile: '/etc/gatehouse/config.json',
    shell: { listen: ['443 ssl', '[::]:443 ssl', '127.0.0.1:8443 ssl http2'], serverName: 'app.example.com *.app.example.com' },
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
});

test.each([
  ['styleSrc', "'unsafe-inline'"],
  ['connectSrc', '*'],
  ['connectSrc', 'https:'],
  ['imgSrc', 'data:'],
  ['connectSrc', 'https://*'],
  ['styleSrc', "'unsafe-hashes'"],
])('--production refuses the CSP addition %s %s', (directive, source) => {
  const result = renderDescription({ csp: { [directive]: [source] } }, true);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`csp.${directive} has ${JSON.stringify(source)}`);
  expect(result.written).toBe(false);
  expect(renderDescription({ csp: { [directive]: ['https://cdn.example.com'] } }, true).status).toBe(0);
});

// Security round four: near-wildcards. A wildcard directly under a public suffix (the public
// suffix list, through tldts: "com", "co.uk", and the private section too, "github.io") allows every site
// registered there; a wildcard without a scheme, or a port alone, is not an origin anyone owns either.
test.each([
  ['connectSrc', 'https://*.com', 'is directly under the public suffix "com"'],
  ['connectSrc', 'https://*.co.uk', 'is directly under the public suffix "co.uk"'],
  ['imgSrc', 'https://*.github.io', 'is directly under the public suffix "github.io"'],
  ['connectSrc', 'wss://*.co.uk:443/socket', 'is directly under the public suffix "co.uk"'],
  ['connectSrc', '*.com', 'is directly under the public suffix "com"'],
  ['connectSrc', '*.example.com', 'a wildcard without a scheme'],
  ['connectSrc', '*:443', 'every host on port 443'],
  ['connectSrc', '*:*', 'every host on port *'],
  ['styleSrc', 'https://cdn*.example.com', 'a wildcard stands only for the leftmost labels'],
])('--production refuses the near-wildcard %s %s, naming it and what to write instead', (directive, source, reason) => {
  const result = renderDescription({ csp: { [directive]: [source] } }, true);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`csp.${directive} has ${JSON.stringify(source)}`);
  expect(result.stderr).toContain(reason);
  expect(result.stderr).toMatch(/name the origins instead, e\.g\. "https:\/\/cdn\.example\.com"|e\.g\. "https:\/\//);
  expect(result.written).toBe(false);
});

test.each(['https://*.example.com', 'https://*.cdn.example.co.uk', 'wss://*.example.com:443', 'https://cdn.example.com:*'])(
  '--production renders the wildcard %s under a domain someone owns',
  (source) => {
    const result = renderDescription({ csp: { connectSrc: [source] } }, true);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  },
);
