// TCP ports on this machine's loopback, for the tests and scripts that start real servers: a port nothing listens
// on (the system picks it, so no fixed port to collide on), and whether a port accepts connections yet (a server
// started in another process says so no other way). Plain Node, no dependencies.

import { connect, createServer } from 'node:net';

/** A TCP port of 127.0.0.1 nothing listens on right now (the system picks it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error(`no port from ${String(address)}`);
  return address.port;
}

/** Whether something accepts a TCP connection on `host`:`port` now (within a second); the connection is closed at once. */
function accepts(port: number, host: string = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

export { freePort, accepts };
