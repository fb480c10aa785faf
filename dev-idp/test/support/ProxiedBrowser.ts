import { request } from 'node:http';

/** One answer, with every `Set-Cookie` line kept whole (attributes included). */
export interface ProxiedResponse {
  status: number;
  location: string | undefined;
  setCookies: string[];
  body: string;
}

/**
 * A browser behind a reverse proxy, reduced to what the tests need: each request to the frontend URL
 * reaches the dev IdP on `127.0.0.1:<port>` with the `Host` and `X-Forwarded-*` headers the proxy would set
 * (fetch cannot set `Host`). A cookie jar (name → value) and manual redirects, so each hop can be read.
 */
export class ProxiedBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly port: number,
    private readonly proxyHeaders: Record<string, string>,
  ) {}

  fetch(url: string | URL, init: { method?: string; form?: Record<string, string> } = {}): Promise<ProxiedResponse> {
    const target = new URL(url);
    const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
    const headers: Record<string, string> = { host: `localhost:${this.port}`, ...this.proxyHeaders };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: this.port, method: init.method ?? 'GET', path: `${target.pathname}${target.search}`, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const setCookies = res.headers['set-cookie'] ?? [];
            for (const line of setCookies) this.#remember(line);
            resolve({ status: res.statusCode ?? 0, location: res.headers.location, setCookies, body: Buffer.concat(chunks).toString() });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  #remember(line: string): void {
    const [pair = ''] = line.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index).trim();
    if (/max-age=0/i.test(line)) this.cookies.delete(name);
    else this.cookies.set(name, pair.slice(index + 1).trim());
  }
}

/** The payload of a JWT (no verification: the tests read the issuer the provider wrote). */
export function jwtPayload(token: unknown): Record<string, unknown> {
  if (typeof token !== 'string') throw new Error(`expected a JWT, got ${JSON.stringify(token)}`);
  const part = token.split('.')[1];
  if (!part) throw new Error(`not a JWT: ${token}`);
  return JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;
}
