// A port nothing listens on right now, for the tests that start real servers (no fixed port to collide on).

import { createServer } from 'node:net';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`unexpected address ${String(address)}`);
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return address.port;
}

export { freePort };
