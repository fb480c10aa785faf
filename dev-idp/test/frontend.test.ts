import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';

import { startDevIdp } from '../src/index.js';
import type { DevIdp } from '../src/index.js';
import { KEYCLOAK_JS_ENDPOINTS } from './support/codeFlow.js';
import { withCli } from './support/cli.js';
import { demoRealm } from './support/fixtures.js';
import { jwtPayload, ProxiedBrowser } from './support/ProxiedBrowser.js';

const APP = 'https://app.localhost';
// RFC 7636's example pair.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** What a proxy at `https://idp.localhost:8443` in front of the dev IdP sends along. */
const TLS_PROXY = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'idp.localhost', 'x-forwarded-port': '8443' };
const TLS_FRONTEND = 'https://idp.localhost:8443';

async function withIdp(options: Parameters<typeof startDevIdp>[0], run: (idp: DevIdp) => Promise<void>): Promise<void> {
  const idp = await startDevIdp({ port: 0, realms: [demoRealm('edge', APP)], quiet: true, ...options });
  try {
    await run(idp);
  } finally {
    await idp.close();
  }
}

async function discovery(browser: ProxiedBrowser, realmUrl: string): Promise<Record<string, string>> {
  const response = await browser.fetch(`${realmUrl}/.well-known/openid-configuration`);
  assert.equal(response.status, 200, response.body);
  return JSON.parse(response.body) as Record<string, string>;
}

/**
 * A code flow through the login form as a browser behind the proxy makes it: every URL the dev IdP hands
 * out (form action, redirects) is followed as given. Returns them, the cookies set, and the tokens.
 */
async function signIn(browser: ProxiedBrowser, realmUrl: string) {
  const query = new URLSearchParams({
    client_id: 'spa',
    response_type: 'code',
    redirect_uri: `${APP}/`,
    scope: 'openid',
    state: 'st',
    nonce: 'n',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  });
  const form = await browser.fetch(`${realmUrl}/protocol/openid-connect/auth?${query}`);
  assert.equal(form.status, 200, form.body);
  const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(form.body)?.[1]?.replace(/&amp;|&#38;/g, '&');
  if (!action) throw new Error(`no login form: ${form.body}`);
  const urls = [action];
  const setCookies: string[] = [];
  let response = await browser.fetch(action, { method: 'POST', form: { username: 'alice', password: 'alice' } });
  for (let hops = 0; response.location && !response.location.startsWith(APP); hops++) {
    assert.ok(hops < 10, 'too many redirects');
    setCookies.push(...response.setCookies);
    urls.push(response.location);
    response = await browser.fetch(new URL(response.location, urls.at(-2)));
  }
  setCookies.push(...response.setCookies);
  const back = new URL(response.location ?? '');
  const params = back.searchParams;
  const tokenResponse = await browser.fetch(`${realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    form: {
      grant_type: 'authorization_code',
      client_id: 'spa',
      code: params.get('code') ?? '',
      redirect_uri: `${APP}/`,
      code_verifier: VERIFIER,
    },
  });
  assert.equal(tokenResponse.status, 200, tokenResponse.body);
  return { urls, setCookies, iss: params.get('iss'), tokens: JSON.parse(tokenResponse.body) as Record<string, unknown> };
}

function cookie(lines: string[], name: string): string {
  const line = lines.find((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie among ${JSON.stringify(lines)}`);
  return line;
}

describe('behind a TLS proxy with --proxy-headers xforwarded', () => {
  test('discovery, the login form, its redirects, tokens and logout are on the forwarded https URL', async () => {
    await withIdp({ proxyHeaders: 'xforwarded' }, async (idp) => {
      const browser = new ProxiedBrowser(idp.port, TLS_PROXY);
      const realmUrl = `${TLS_FRONTEND}/realms/edge`;
      const config = await discovery(browser, realmUrl);
      assert.equal(config.issuer, realmUrl);
      for (const key of KEYCLOAK_JS_ENDPOINTS) {
        assert.ok(config[key]?.startsWith(`${realmUrl}/protocol/openid-connect/`), `${key}: ${config[key]}`);
      }

      const { urls, setCookies, iss, tokens } = await signIn(browser, realmUrl);
      assert.ok(urls[0]?.startsWith(`${realmUrl}/login-actions/authenticate?`), `form action ${urls[0]}`);
      for (const url of urls.slice(1)) assert.ok(new URL(url, realmUrl).href.startsWith(`${realmUrl}/`), `redirect ${url}`);
      assert.equal(iss, realmUrl);
      for (const name of ['access_token', 'id_token', 'refresh_token']) assert.equal(jwtPayload(tokens[name]).iss, realmUrl, name);
      for (const name of ['KEYCLOAK_IDENTITY', 'KEYCLOAK_SESSION']) {
        assert.match(cookie(setCookies, name), /; secure/i, name);
        assert.match(cookie(setCookies, name), /samesite=none/i, name);
      }

      const userinfo = await browser.fetch(`${realmUrl}/protocol/openid-connect/token`, {
        method: 'POST',
        form: { grant_type: 'refresh_token', client_id: 'spa', refresh_token: String(tokens.refresh_token) },
      });
      assert.equal(userinfo.status, 200, `the refresh token of the https issuer is accepted: ${userinfo.body}`);

      const sid = String(jwtPayload(tokens.access_token).sid);
      const frame = await browser.fetch(`${realmUrl}/protocol/openid-connect/login-status-iframe.html/status?session_state=${sid}`);
      assert.equal(frame.body, 'unchanged', 'the frame finds the session by its Secure cookie');

      const logout = await browser.fetch(
        `${realmUrl}/protocol/openid-connect/logout?${new URLSearchParams({ client_id: 'spa', id_token_hint: String(tokens.id_token), post_logout_redirect_uri: `${APP}/` })}`,
      );
      assert.equal(logout.location, `${APP}/`);
      assert.match(cookie(logout.setCookies, 'KEYCLOAK_SESSION'), /max-age=0; samesite=none; secure/i);
    });
  });

  test('a request without forwarded headers (the proxy bypassed) keeps plain http and SameSite=Lax cookies', async () => {
    await withIdp({ proxyHeaders: 'xforwarded' }, async (idp) => {
      const browser = new ProxiedBrowser(idp.port, {});
      const { setCookies, tokens } = await signIn(browser, idp.url + '/realms/edge');
      assert.equal(jwtPayload(tokens.id_token).iss, `${idp.url}/realms/edge`);
      for (const name of ['KEYCLOAK_IDENTITY', 'KEYCLOAK_SESSION']) {
        assert.match(cookie(setCookies, name), /samesite=lax/i, name);
        assert.doesNotMatch(cookie(setCookies, name), /secure/i, name);
      }
    });
  });

  test('forwarded headers are ignored unless --proxy-headers is set', async () => {
    await withIdp({}, async (idp) => {
      const browser = new ProxiedBrowser(idp.port, TLS_PROXY);
      assert.equal((await discovery(browser, `${idp.url}/realms/edge`)).issuer, `${idp.url}/realms/edge`);
      const { urls, setCookies } = await signIn(browser, `${idp.url}/realms/edge`);
      assert.ok(urls[0]?.startsWith(`${idp.url}/realms/edge/`), urls[0]);
      assert.doesNotMatch(cookie(setCookies, 'KEYCLOAK_SESSION'), /secure/i);
    });
  });
});

describe('--hostname (a full URL)', () => {
  test('fixes issuer, endpoints, redirects and Location headers, whatever Host the request came with', async () => {
    await withIdp({ hostname: 'https://sso.example.test' }, async (idp) => {
      const realmUrl = 'https://sso.example.test/realms/edge';
      assert.equal(idp.url, 'https://sso.example.test');
      for (const host of [`localhost:${idp.port}`, 'sso.example.test']) {
        const browser = new ProxiedBrowser(idp.port, { host });
        assert.equal((await discovery(browser, realmUrl)).issuer, realmUrl, host);
      }
      const browser = new ProxiedBrowser(idp.port, { host: 'sso.example.test' });
      const { urls, setCookies, tokens } = await signIn(browser, realmUrl);
      assert.ok(urls[0]?.startsWith(`${realmUrl}/login-actions/`), urls[0]);
      assert.equal(jwtPayload(tokens.access_token).iss, realmUrl);
      assert.match(cookie(setCookies, 'KEYCLOAK_SESSION'), /samesite=none; secure/i);

      const admin = new ProxiedBrowser(idp.port, {});
      const token = await admin.fetch('https://sso.example.test/realms/master/protocol/openid-connect/token', {
        method: 'POST',
        form: { grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin' },
      });
      assert.equal(token.status, 200, token.body);
      assert.equal(
        jwtPayload((JSON.parse(token.body) as Record<string, unknown>).access_token).iss,
        'https://sso.example.test/realms/master',
      );
    });
  });

  test('refuses a bare host name or a path with what to pass instead', async () => {
    await assert.rejects(startDevIdp({ hostname: 'sso.example.test', quiet: true }), /pass the full URL browsers use/);
    await assert.rejects(startDevIdp({ hostname: 'https://sso.example.test/auth', quiet: true }), /serves at the root only/);
    await assert.rejects(startDevIdp({ proxyHeaders: 'forwarded', quiet: true }), /expected xforwarded/);
  });
});

describe('the Host header (DNS rebinding)', () => {
  const token = (browser: ProxiedBrowser) =>
    browser.fetch('http://localhost/realms/master/protocol/openid-connect/token', {
      method: 'POST',
      form: { grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin' },
    });

  test('loopback names are answered, any other is refused with the option to set', async () => {
    await withIdp({}, async (idp) => {
      for (const host of [`localhost:${idp.port}`, `127.0.0.1:${idp.port}`, `[::1]:${idp.port}`, `app.localhost:${idp.port}`]) {
        assert.equal((await token(new ProxiedBrowser(idp.port, { host }))).status, 200, host);
      }
      const refused = await token(new ProxiedBrowser(idp.port, { host: `rebind.attacker.test:${idp.port}` }));
      assert.equal(refused.status, 403);
      assert.match(
        String((JSON.parse(refused.body) as Record<string, unknown>).error_description),
        /--hostname https:\/\/rebind\.attacker\.test/,
      );
      const admin = await new ProxiedBrowser(idp.port, { host: 'rebind.attacker.test' }).fetch('http://x/admin/realms');
      assert.equal(admin.status, 403);
    });
  });

  test('the configured hostname is accepted; with --proxy-headers the forwarded host must be acceptable too', async () => {
    await withIdp({ hostname: 'https://sso.example.test', proxyHeaders: 'xforwarded' }, async (idp) => {
      assert.equal((await token(new ProxiedBrowser(idp.port, { host: 'sso.example.test' }))).status, 200);
      assert.equal((await token(new ProxiedBrowser(idp.port, { host: 'other.example.test' }))).status, 403);
      const forwarded = await token(new ProxiedBrowser(idp.port, { 'x-forwarded-host': 'rebind.attacker.test' }));
      assert.equal(forwarded.status, 403);
      assert.match(forwarded.body, /X-Forwarded-Host/);
    });
  });
});

test('the CLI reads KC_HOSTNAME and KC_PROXY_HEADERS, and refuses a bad --hostname with what to pass', async () => {
  await withCli(
    ['--port', '18081', '--management-port', '19001'],
    { KC_HOSTNAME: 'https://sso.example.test:8443', KC_PROXY_HEADERS: 'xforwarded' },
    'trusting X-Forwarded',
    async (output) => {
      assert.match(output, /on https:\/\/sso\.example\.test:8443/);
      const config = await discovery(new ProxiedBrowser(18081, {}), 'http://localhost/realms/master');
      assert.equal(config.issuer, 'https://sso.example.test:8443/realms/master');
    },
  );
  const bad = spawn(process.execPath, ['bin/gatehouse-dev-idp.mjs', '--port', '0', '--hostname', 'sso.example.test'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  bad.stderr.on('data', (chunk: Buffer) => (errors += String(chunk)));
  const [code] = (await once(bad, 'exit')) as [number];
  assert.equal(code, 1);
  assert.match(errors, /--hostname "sso\.example\.test" is not a URL: pass the full URL/);
});
