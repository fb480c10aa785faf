import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A plain TCP forwarder: `port` → `targetPort` on localhost. Used to make the identity provider
 * "come back" at the address a config.json names, without touching the provider everyone shares.
 */
export async function startTcpProxy(port: number, targetPort: number): Promise<{ stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect({ port: targetPort, host: 'localhost', autoSelectFamily: true });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
