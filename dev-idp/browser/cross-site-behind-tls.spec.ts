import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromiumLaunchOptions } from '@gatehouse/testkit/chromium';
import { fillLoginForm } from '@gatehouse/testkit/login-form';
import { findMimeTypes, requireNginx } from '@gatehouse/testkit/nginx';
import { accepts, freePort } from '@gatehouse/testkit/ports';
import { startProcess } from '@gatehouse/testkit/processes';
import { createTestCa } from '@gatehouse/testkit/tls';
import { chromium, expect, test } from '@playwright/test';
import type { BrowserContext } from '@playwright/test';

import { startDevIdp, testRealm } from '../src/index.js';
import type { DevIdp } from '../src/index.js';
import { startAppServer } from './appServer.js';

// the app on one site, the dev IdP on another, both behind a TLS proxy (real nginx), in Chromium with
// third-party cookies allowed. The login-status frame is a third-party frame there: it keeps the session only
// when the provider's cookies are `Secure; SameSite=None`, as Keycloak sets them over https.

const APP_HOST = 'app.site-a.test';
const IDP_HOST = 'sso.site-b.test';

let work: string;
let idp: DevIdp;
let app: { url: string; close(): Promise<void> };
let nginx: ReturnType<typeof startProcess>;
let spki: string;
let appUrl: string;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'gatehouse-cross-site-'));
  const ca = createTestCa();
  const leaf = ca.issue([APP_HOST, IDP_HOST]);
  const port = await freePort();
  appUrl = `https://${APP_HOST}:${port}`;
  const idpUrl = `https://${IDP_HOST}:${port}`;
  idp = await startDevIdp({
    port: 0,
    proxyHeaders: 'xforwarded',
    hostname: idpUrl,
    quiet: true,
    realms: [testRealm('cross', { clientId: 'spa', origin: appUrl })],
  });
  app = await startAppServer(() => ({ url: idpUrl, realm: 'cross', clientId: 'spa' }));
  const server = (name: string, upstream: string) => `
    server {
      listen 127.0.0.1:${port} ssl;
      server_name ${name};
      ssl_certificate ${leaf.certFile};
      ssl_certificate_key ${leaf.keyFile};
      location / {
        proxy_pass ${upstream};
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $host;
        proxy_set_header X-Forwarded-Port $server_port;
      }
    }`;
  mkdirSync(join(work, 'tmp'));
  writeFileSync(
    join(work, 'nginx.conf'),
    `daemon off; ${process.getuid?.() === 0 ? 'user root;' : ''} worker_processes 1; pid ${work}/nginx.pid; error_log stderr warn;
     events { worker_connections 64; }
     http { include ${findMimeTypes()}; access_log off; client_body_temp_path ${work}/tmp/body; proxy_temp_path ${work}/tmp/proxy;
       ${server(APP_HOST, app.url)} ${server(IDP_HOST, `http://127.0.0.1:${idp.port}`)} }`,
  );
  nginx = startProcess(requireNginx(), ['-p', work, '-c', join(work, 'nginx.conf'), '-e', 'stderr'], { stdio: 'inherit' });
  while (!(await accepts(port))) await new Promise((resolve) => setTimeout(resolve, 50));
  spki = leaf.spkiSha256;
  ca.remove();
});

test.afterAll(async () => {
  await nginx?.stop();
  await app?.close();
  await idp?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Chromium in a fresh profile that allows third-party cookies (Debian's Chromium blocks them in a fresh one). */
async function browserAllowingThirdPartyCookies(): Promise<BrowserContext> {
  const profile = mkdtempSync(join(work, 'profile-'));
  mkdirSync(join(profile, 'Default'));
  writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0 } }));
  const launch = chromiumLaunchOptions({ needs: 'browser' }); // the headless shell ignores Preferences (decisions/0104)
  return chromium.launchPersistentContext(profile, {
    ...launch,
    args: [...launch.args, '--host-resolver-rules=MAP *.test 127.0.0.1', `--ignore-certificate-errors-spki-list=${spki}`],
  });
}

test('a provider on another site keeps the session through its status checks behind TLS', async () => {
  const context = await browserAllowingThirdPartyCookies();
  try {
    await signInAndWatchTwoChecks(context);
  } finally {
    await context.close();
  }
});

async function signInAndWatchTwoChecks(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  const checks: string[] = [];
  const twoChecks = new Promise<void>((resolve) =>
    context.on('requestfinished', (request) => {
      if (request.url().includes('/login-status-iframe.html/status') && checks.push(request.url()) >= 2) resolve();
    }),
  );
  await page.goto(appUrl);
  await expect(page.locator('#state')).toHaveText('signed out');
  await page.evaluate(() => {
    void (window as unknown as { kc: { login(): Promise<void> } }).kc.login();
  });
  await page.waitForURL(/\/protocol\/openid-connect\/auth\?/);
  expect(new URL(page.url()).origin).toBe(`https://${IDP_HOST}:${new URL(appUrl).port}`);
  await fillLoginForm(page, 'alice');
  await expect(page.locator('#state')).toHaveText('signed in as alice');
  await twoChecks;
  const state = await page.evaluate(() => {
    const { kc, events } = window as unknown as { kc: { authenticated?: boolean }; events: string[] };
    return { authenticated: kc.authenticated, events };
  });
  expect(state.events).not.toContain('onAuthLogout');
  expect(state.authenticated).toBe(true);
}
