import net from 'node:net';

/**
 * Whether nothing answers on `localhost:<port>` (IPv4 or IPv6): the dev servers listen on "localhost",
 * which is either, depending on the machine.
 */
export async function portIsFree(port: number): Promise<boolean> {
  const answers = await Promise.all(['127.0.0.1', '::1'].map((host) => connects(host, port)));
  return !answers.includes(true);
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
