/**
 * @jest-environment node
 */
// Security round three: the identity provider behind nginx, as deploy/nginx/render.mjs renders it, in a
// real nginx in front of a stub upstream that records what reaches it. Both placements: under /auth of the shell's
// origin (the proxied topology) and on a host of its own.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

// The test kit's nginx, process and port helpers (CommonJS without declarations; the shell's tsconfig does not read JS).
interface ManagedProcess {
  stop(): Promise<unknown>;
}
const testkit = createRequire(__filename);
const { checkNginxConfig, nginxMainConfig, requireNginx, workerUserFor } = testkit('@gatehouse/testkit/nginx') as {
  checkNginxConfig(nginx: string, args: readonly string[]): void;
  nginxMainConfig(options: { prefix: string; user?: string; workerConnections?: number; http: readonly string[] }): string;
  requireNginx(): string;
  workerUserFor(paths: readonly string[]): { directive: string };
};
const { startProcess } = testkit('@gatehouse/testkit/processes') as {
  startProcess(command: string, args: readonly string[], options: object): ManagedProcess;
};
const { accepts, freePort } = testkit('@gatehouse/testkit/ports') as {
  accepts(port: number): Promise<boolean>;
  freePort(): Promise<number>;
};

const RENDER = resolve(__dirname, '../../../deploy/nginx/render.mjs');
const SHELL_HOST = 'portal.example.test';
const IDP_HOST = 'sso.example.test';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

let work: string;
let port: number;
let upstream: Server;
let nginx: ManagedProcess;
const seen: Seen[] = [];

async function listening(onPort: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (await accepts(onPort)) return;
    if (attempt > 100) throw new Error(`nginx did not listen on 127.0.0.1:${onPort}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** One request to nginx, as a browser (or an attacker) would send it to `host`. */
function send(host: string, path: string, { method = 'GET', headers = {} as Record<string, string> } = {}) {
  return new Promise<{ status: number; body: string }>((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', fail);
    req.end();
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'idp-proxy-'));
  for (const dir of ['conf.d', 'logs', 'tmp', 'shell']) mkdirSync(join(work, dir), { recursive: true });
  upstream = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.end('from the provider');
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  const address = upstream.address();
  if (address === null || typeof address === 'string') throw new Error('no upstream address');
  const upstreamUrl = `http://127.0.0.1:${address.port}`;
  port = await freePort();

  writeFileSync(join(work, 'shell/index.html'), '<!doctype html><title>shell</title>');
  const config = {
    identityProvider: { url: `http://${SHELL_HOST}:${port}/auth`, realm: 'gatehouse', clientId: 'gatehouse-shell' },
    remotes: [],
  };
  writeFileSync(join(work, 'config.json'), JSON.stringify(config));
  const listen = `127.0.0.1:${port}`;
  writeFileSync(
    join(work, 'deployment.json'),
    JSON.stringify({
      configFile: 'config.json',
      shell: {
        origin: `http://${SHELL_HOST}:${port}`,
        listen,
        serverName: SHELL_HOST,
        root: join(work, 'shell'),
        identityProviderProxy: { path: '/auth', upstream: upstreamUrl },
      },
      identityProvider: { listen, serverName: IDP_HOST, upstream: upstreamUrl },
    }),
  );
  const run = spawnSync(process.execPath, [RENDER, join(work, 'deployment.json'), join(work, 'conf.d')], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`render.mjs refused the deployment:\n${run.stderr}`);

  writeFileSync(
    join(work, 'nginx.conf'),
    nginxMainConfig({
      prefix: work,
      user: workerUserFor([work]).directive,
      http: ['access_log off;', `include ${join(work, 'conf.d/*.conf')};`],
    }),
  );
  const args = ['-p', work, '-c', join(work, 'nginx.conf'), '-e', 'stderr'];
  const binary = requireNginx();
  checkNginxConfig(binary, args);
  nginx = startProcess(binary, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  await listening(port);
}, 30_000);

afterAll(async () => {
  await nginx?.stop();
  await new Promise((done) => upstream?.close(done));
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  seen.length = 0;
});

describe.each([
  ['under /auth of the shell', SHELL_HOST, '/auth'],
  ['on a host of its own', IDP_HOST, ''],
])('the provider %s', (_, host, prefix) => {
  test.each([
    ['GET', '/admin/master/console/'],
    ['GET', '/admin/realms/gatehouse/users'],
    ['POST', '/realms/master/protocol/openid-connect/token'],
    ['GET', '/realms/master/.well-known/openid-configuration'],
    ['GET', '/realms/MASTER/account'],
    ['GET', '/realms/%6Daster/protocol/openid-connect/auth'],
    ['GET', '/realms/gatehouse/../master/protocol/openid-connect/auth'],
    ['GET', '/'],
    ['GET', '/metrics'],
    ['GET', '/health/ready'],
    ['GET', '/js/keycloak.js'],
    // Security round four: path parameters (";…"), which nginx matches as part of the segment
    // and Keycloak before 26.4.9 strips (CVE-2026-0976), so these reached realm `master` and the admin console
    ['POST', '/realms/master;x/protocol/openid-connect/token'],
    ['GET', '/realms/master;/.well-known/openid-configuration'],
    ['GET', '/realms/gatehouse/..;/master/account'],
    ['GET', '/realms/master%3Bx/protocol/openid-connect/auth'],
    ['GET', '/realms/gatehouse;jsessionid=x/protocol/openid-connect/auth'],
    ['GET', '/resources/..;/admin/master/console/'],
    ['GET', '/resources/x/..;/..;/realms/master/account'],
  ])('%s %s answers 404 and never reaches the provider', async (method, path) => {
    const answer = await send(host, `${prefix}${path}`, { method });
    expect({ path, status: answer.status, reached: seen.map((s) => s.url) }).toEqual({ path, status: 404, reached: [] });
  });

  test.each([
    '/realms/gatehouse/.well-known/openid-configuration',
    '/realms/gatehouse/protocol/openid-connect/auth?client_id=gatehouse-shell',
    '/realms/gatehouse/protocol/openid-connect/login-status-iframe.html',
    '/realms/gatehouse/protocol/openid-connect/3p-cookies/step1.html',
    '/realms/gatehouse/login-actions/authenticate?session_code=x',
    '/resources/abcde/login/keycloak.v2/css/styles.css',
  ])('%s reaches the provider as it is', async (path) => {
    const answer = await send(host, `${prefix}${path}`);
    expect(answer).toEqual({ status: 200, body: 'from the provider' });
    expect(seen.map((s) => s.url)).toEqual([`${prefix}${path}`]);
  });

  test("the client's forwarding headers are overwritten, not appended to or passed on", async () => {
    await send(host, `${prefix}/realms/gatehouse/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        'x-forwarded-for': '203.0.113.9',
        forwarded: 'for=203.0.113.9;host=evil.example;proto=https',
        'x-forwarded-prefix': '/evil',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-port': '1',
      },
    });
    expect(seen).toHaveLength(1);
    const headers: IncomingHttpHeaders = seen[0]?.headers ?? {};
    expect({
      for: headers['x-forwarded-for'],
      forwarded: headers.forwarded,
      prefix: headers['x-forwarded-prefix'],
      host: headers['x-forwarded-host'],
      proto: headers['x-forwarded-proto'],
      port: headers['x-forwarded-port'],
    }).toEqual({ for: '127.0.0.1', forwarded: undefined, prefix: undefined, host, proto: 'http', port: String(port) });
  });
});

test("the shell's own routes stay the shell's", async () => {
  const answer = await send(SHELL_HOST, '/profile');
  expect(answer.status).toBe(200);
  expect(answer.body).toContain('<title>shell</title>');
  expect(seen).toEqual([]);
});
