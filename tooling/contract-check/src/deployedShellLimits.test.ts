import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runContractCheckCli, type DeployedShellIo } from './deployedShellCli';

// `--shell <url>` against hostile or broken servers, over real HTTP (local servers).

let work: string;
let remoteDir: string;
const servers: http.Server[] = [];

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-limits-'));
  remoteDir = path.join(work, 'billing');
  fs.mkdirSync(path.join(remoteDir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(remoteDir, 'dist', 'mf-manifest.json'), JSON.stringify({ id: 'billing', name: 'billing', shared: [] }));
});
afterAll(async () => {
  servers.forEach((s) => s.closeAllConnections());
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  fs.rmSync(work, { recursive: true, force: true });
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function check(shellUrl: string, io: Partial<DeployedShellIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runContractCheckCli(['--shell', shellUrl, '--remote', remoteDir], {
    cwd: work,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    ...io,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('a body that never ends is cut off at the size limit', async () => {
  let sent = 0;
  const url = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, ' ');
    const pump = (): void => {
      while (res.write(chunk)) sent += chunk.length;
      res.once('drain', pump);
    };
    pump();
  });
  const result = await check(url);
  expect(result.code).toBe(2);
  expect(result.err).toMatch(/sent more than 2000000 bytes; stopped reading/);
  expect(sent).toBeLessThan(50_000_000);
});

test('a server that never sends its headers is cut off at the time limit', async () => {
  const url = await serve(() => {
    /* never answers */
  });
  const result = await check(url, { readOptions: { timeoutMs: 300 } });
  expect(result.code).toBe(2);
  expect(result.err).toMatch(/did not answer completely within 300 ms/);
});

test('a redirect to another origin is refused, naming it', async () => {
  const elsewhere = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  const url = await serve((req, res) => res.writeHead(302, { location: `${elsewhere}${req.url}` }).end());
  const result = await check(url);
  expect(result.code).toBe(2);
  expect(result.err).toContain(`redirects to another origin (${elsewhere}); not followed`);
});

test("the server's strings reach the terminal without their escape codes", async () => {
  const url = await serve((req, res) => {
    const body =
      req.url === '/config.json'
        ? { remotes: [{ name: 'billing', route: '/billing\u001b]0;owned\u0007', manifest: 'https://x.test/\u001b[2J' }] }
        : { name: 'shell', shared: [{ name: 'react', version: '19.0.0\u001b[31m' }] };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  const result = await check(url);
  const printed = result.out + result.err;
  expect(printed.includes('\u001b') || printed.includes('\u0007')).toBe(false);
  expect(printed).toContain('\\u{1b}');
});
