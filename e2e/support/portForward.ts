import http from 'node:http';

/** A server on `port` that forwards every request to `target` (another origin), for "the same remote at another address". */
export interface PortForward {
  readonly origin: string;
  close(): Promise<void>;
}

export async function forwardPort(port: number, target: string): Promise<PortForward> {
  const server = http.createServer((request, response) => {
    const upstream = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: { ...request.headers, host: new URL(target).host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, 'localhost', resolve));
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
