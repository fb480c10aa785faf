import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import type { SessionConfig } from '../../../src';

export interface TestApp {
  readonly origin: string;
  /** what /config.json answers (the identity provider starts after the page server: it needs its origin) */
  setConfig(config: SessionConfig): void;
  /** adds `settings` to what /config.json answers now (the test's realm: its provider, realm and client) */
  configure(settings: Partial<SessionConfig>): void;
  close(): Promise<void>;
}

/** auth-lib's own silent check-sso page and its script, as every app serves them. */
const PUBLIC_DIR = join(__dirname, '..', '..', '..', 'public');
const SILENT_CHECK_SSO_HTML = readFileSync(join(PUBLIC_DIR, 'silent-check-sso.html'), 'utf8');
const SILENT_CHECK_SSO_SCRIPT = readFileSync(join(PUBLIC_DIR, 'silent-check-sso.js'), 'utf8');

let bundle: Promise<string> | null = null;

/** The test page's script: auth-lib's real source (keycloak-js included), bundled once per worker. */
function pageBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [join(__dirname, '..', 'page', 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text);
  return bundle;
}

const INDEX_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>auth-lib test page</title></head>
<body><h1>auth-lib test page</h1><p id="status">loading</p><script src="/main.js"></script></body></html>`;

/**
 * Serves the test page on a free port of `host`; the page creates its session from /config.json. `localhost` is the
 * providers' host (any port of one host is one site); `127.0.0.1` is another site, where the provider's
 * third-party-cookie check runs (decisions/0097).
 */
export async function startTestApp(host: 'localhost' | '127.0.0.1' = 'localhost'): Promise<TestApp> {
  const script = await pageBundle();
  let config: object = {};
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/main.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (path === '/config.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(config));
    if (path === '/silent-check-sso.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end(SILENT_CHECK_SSO_HTML);
    if (path === '/silent-check-sso.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(SILENT_CHECK_SSO_SCRIPT);
    if (path === '/api/echo') {
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ authorization: req.headers.authorization ?? null }));
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(INDEX_HTML);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    setConfig: (next) => {
      config = next;
    },
    configure: (settings) => {
      if (!('realm' in config))
        throw new Error("configure() adds to the realm fixture's config: the test takes `realm` (or `signedInPage`) first");
      config = { ...config, ...settings };
    },
    // a page's keep-alive connections would hold close() until they time out
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
