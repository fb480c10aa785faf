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
    const result = await doctor([`http://shell.example.test:${port}/`, '--resolve', 'shell.example.test:127.0.0.1', '--timeout', '300']);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`The shell cannot be read: http://shell.example.test:${port}/ did not answer completely within 300 ms`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
