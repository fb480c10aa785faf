import { expect, test, type APIResponse } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support/previewProcess';
import { exposedFiles, IDENTITY_PROVIDER, REMOTE_ORIGINS, SHELL, startTopology, type Topology } from './support/topology';

// HTTP-level checks of the nginx configuration in deploy/nginx, as the browser gets it.

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

let topology: Topology;
test.beforeAll(async () => {
  topology = await startTopology();
});
test.afterAll(async () => {
  await topology?.stop();
});

function shellScript(): string {
  const html = readFileSync(join(REPO_ROOT, 'shell/dist/index.html'), 'utf8');
  const src = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('shell/dist/index.html has no <script src>');
  return `/${src.replace(/^(\.\/|\/)/, '')}`;
}

function csp(response: APIResponse): Map<string, string[]> {
  const header = response.headers()['content-security-policy'] ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

test.describe('cache headers', () => {
  for (const path of ['/', '/index.html', '/config.json', '/profile']) {
    test(`shell ${path} is revalidated every time`, async ({ request }) => {
      const response = await request.get(`${SHELL}${path}`);
      expect(response.status()).toBe(200);
      expect(response.headers()['cache-control']).toBe(NO_CACHE);
    });
  }

  test('shell hashed assets are immutable for a year', async ({ request }) => {
    const response = await request.get(`${SHELL}${shellScript()}`);
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe(IMMUTABLE);
  });

  for (const [name, origin] of Object.entries(REMOTE_ORIGINS)) {
    test(`remote ${name}: manifest and entry revalidated, chunks immutable`, async ({ request }) => {
      for (const file of ['/mf-manifest.json', '/remoteEntry.js']) {
        const response = await request.get(`${origin}${file}`);
        expect(response.status(), file).toBe(200);
        expect(response.headers()['cache-control'], file).toBe(NO_CACHE);
      }
      // A validator, so that the shell's revalidation on each navigation (decisions/0046) costs a 304.
      const manifest = await request.get(`${origin}/mf-manifest.json`, { headers: { Origin: SHELL } });
      const etag = manifest.headers()['etag'];
      expect(etag, 'mf-manifest.json ETag').toMatch(/^(W\/)?"[^"]+"$/);
      const revalidated = await request.get(`${origin}/mf-manifest.json`, { headers: { Origin: SHELL, 'If-None-Match': etag! } });
      expect(revalidated.status()).toBe(304);
      expect(revalidated.headers()['cache-control']).toBe(NO_CACHE);
      expect(revalidated.headers()['access-control-allow-origin']).toBe(SHELL);
      const chunk = exposedFiles(join(REPO_ROOT, 'remotes', name, 'dist'))[0]!;
      const response = await request.get(`${origin}/${chunk}`);
      expect(response.status()).toBe(200);
      expect(response.headers()['cache-control']).toBe(IMMUTABLE);
    });
  }
});

test.describe('compression', () => {
  test('text is gzipped: html, js, json', async ({ request }) => {
    for (const url of [`${SHELL}/`, `${SHELL}${shellScript()}`, `${REMOTE_ORIGINS.profile}/mf-manifest.json`]) {
      const response = await request.get(url, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(response.headers()['content-encoding'], url).toBe('gzip');
    }
  });
});

test.describe('SPA fallback and 404s', () => {
  test('an unknown route of the shell serves index.html', async ({ request }) => {
    const response = await request.get(`${SHELL}/reports/2026/summary`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/html');
    expect(await response.text()).toContain('<div id="root">');
  });

  test('a missing asset is a 404, not index.html', async ({ request }) => {
    for (const url of [`${SHELL}/main.0123abcd.js`, `${SHELL}/missing.css`, `${REMOTE_ORIGINS.profile}/missing.js`]) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(404);
    }
  });

  test('source maps are not served', async ({ request }) => {
    const response = await request.get(`${SHELL}${shellScript()}.map`);
    expect(response.status()).toBe(404);
  });
});

test.describe('CORS on the remotes', () => {
  for (const [name, origin] of Object.entries(REMOTE_ORIGINS)) {
    test(`remote ${name} allows the shell's origin only`, async ({ request }) => {
      const fromShell = await request.get(`${origin}/mf-manifest.json`, { headers: { Origin: SHELL } });
      expect(fromShell.headers()['access-control-allow-origin']).toBe(SHELL);
      expect(fromShell.headers()['vary']).toContain('Origin');

      for (const other of ['http://localhost:4999', 'https://evil.example', 'null', REMOTE_ORIGINS.admin]) {
        if (other === origin) continue;
        const response = await request.get(`${origin}/mf-manifest.json`, { headers: { Origin: other } });
        expect(response.headers()['access-control-allow-origin'], other).toBeUndefined();
        expect(response.headers()['vary'], other).toContain('Origin');
      }
    });
  }
});

test.describe('security headers', () => {
  test('the shell sends a strict CSP derived from its config.json', async ({ request }) => {
    const response = await request.get(`${SHELL}/profile`);
    const policy = csp(response);
    const remotes = Object.values(REMOTE_ORIGINS);
    expect(policy.get('script-src')).toEqual(["'self'", ...remotes]);
    expect(policy.get('connect-src')).toEqual(expect.arrayContaining(["'self'", ...remotes, IDENTITY_PROVIDER]));
    expect(policy.get('frame-src')).toEqual(expect.arrayContaining([IDENTITY_PROVIDER]));
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    const all = response.headers()['content-security-policy']!;
    expect(all).not.toContain('unsafe-eval');
    expect(all).not.toContain('unsafe-inline');
  });

  test('nosniff and a referrer policy everywhere, errors included', async ({ request }) => {
    for (const url of [
      `${SHELL}/`,
      `${SHELL}/missing.js`,
      `${REMOTE_ORIGINS.reports}/remoteEntry.js`,
      `${REMOTE_ORIGINS.reports}/missing.js`,
    ]) {
      const response = await request.get(url);
      expect(response.headers()['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers()['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
  });
});
