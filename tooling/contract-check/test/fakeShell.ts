import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A deployed shell over real HTTP (a local server): its mf-manifest.json sharing `shares`, its config.json listing `remotes`. */
export interface FakeShell {
  readonly url: string;
  close(): Promise<void>;
}

export async function startFakeShell(
  shares: Readonly<Record<string, string>>,
  remotes: ReadonlyArray<{ name: string; manifest: string; route: string; title: string; signingKeys?: readonly object[] }>,
): Promise<FakeShell> {
  const files: Record<string, unknown> = {
    '/mf-manifest.json': {
      id: 'gatehouse_shell',
      name: 'gatehouse_shell',
      metaData: {},
      shared: Object.entries(shares).map(([name, version]) => ({
        id: `x:${name}`,
        name,
        version,
        singleton: true,
        requiredVersion: `^${version}`,
      })),
      remotes: [],
      exposes: [],
    },
    '/config.json': { identityProvider: {}, remotes },
  };
  const server = http.createServer((request, response) => {
    const body = files[request.url ?? ''];
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
