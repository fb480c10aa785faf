import { createServer } from 'node:net';

/**
 * A TCP port nothing listens on right now (the system picks it): the suite never collides with
 * `npm start` or `npm run preview`, and runs without root or a network namespace.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error(`no port from ${String(address)}`));
        else resolve(address.port);
      });
    });
  });
}
