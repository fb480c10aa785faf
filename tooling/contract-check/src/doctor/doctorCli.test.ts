import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runDoctorCli } from './doctorCli';

async function doctor(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDoctorCli(argv, { cwd: process.cwd(), out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('wrong usage exits 2 with what to pass', async () => {
  expect(await doctor([])).toMatchObject({ code: 2, err: expect.stringContaining("Pass the shell's address") });
  expect(await doctor(['https://app.example.com', '--resolve', 'no-address'])).toMatchObject({
    code: 2,
    err: expect.stringContaining('Unknown option or bad value: --resolve no-address'),
  });
  expect((await doctor(['--help'])).out).toContain('Usage: gatehouse-doctor <shell url>');
});

test('a shell that never answers is cut off at --timeout, exit 2', async () => {
  const server = http.createServer(() => {
    /* never answers */
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const result = await doctor([
      `http://shell.example.test:${port}/`,
      '--resolve',
      'shell.example.test:127.0.0.1',
      '--timeout',
      '300',
      '--allow-private',
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`The shell cannot be read: http://shell.example.test:${port}/ did not answer completely within 300 ms`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

// Security round three: the addresses the doctor reads come from the deployment it checks.
describe('a hostile shell', () => {
  const hits: string[] = [];
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      if (request.url === '/config.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        // it names loopback and a cloud's metadata service as its provider and remotes
        response.end(
          JSON.stringify({
            identityProvider: { url: 'http://169.254.169.254/latest/meta-data', realm: 'r', clientId: 'c' },
            remotes: [{ name: 'x', manifest: `http://127.0.0.1:${port}/admin/delete-everything?confirm=yes`, route: '/x', title: 'X' }],
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' }); // and no Content-Security-Policy
      response.end('<!doctype html><title>shell</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    hits.length = 0;
  });

  test.each([
    ['a loopback address', () => `http://127.0.0.1:${port}/`, [] as string[], '127.0.0.1'],
    ['IPv4 mapped into IPv6', () => `http://[::ffff:127.0.0.1]:${port}/`, [], '::ffff:7f00:1'],
    [
      'a name that resolves to loopback',
      () => `http://shell.example.test:${port}/`,
      ['--resolve', 'shell.example.test:127.0.0.1'],
      '127.0.0.1',
    ],
    [
      'a name that resolves to the metadata service',
      () => `http://shell.example.test:${port}/`,
      ['--resolve', 'shell.example.test:169.254.169.254'],
      '169.254.169.254',
    ],
  ])('at %s is not read without --allow-private', async (_, url, args, address) => {
    const result = await doctor([url(), ...args, '--timeout', '2000']);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`is at ${address}, a loopback or private address; not read`);
    expect(result.err).toContain('Pass --allow-private to read it');
    expect(hits).toEqual([]);
  });

  test('with --allow-private: read, and a missing Content-Security-Policy is a problem, not a pass', async () => {
    const result = await doctor([`http://127.0.0.1:${port}/`, '--allow-private', '--timeout', '2000']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^✗ DOCTOR-NO-CSP {2}http:\/\/127\.0\.0\.1:\d+\/ sends no Content-Security-Policy\.$/m);
    expect(result.err).not.toContain('✓ The shell sends no Content-Security-Policy');
  });
});
