import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

/** keycloak-js's main entry is lib/keycloak.js, an ES module the page imports as is. */
const keycloakJs = createRequire(import.meta.url).resolve('keycloak-js');

/** What the test page passes to `new Keycloak(…)`. */
export interface AppConfig {
  url: string;
  realm: string;
  clientId: string;
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>keycloak-js test app</title></head>
<body><h1>keycloak-js test app</h1><p id="state">starting</p>
<script type="module">
import Keycloak from '/keycloak.js';
const config = await (await fetch('/config.json')).json();
const kc = new Keycloak(config);
window.kc = kc;
window.events = [];
for (const name of ['onReady', 'onAuthSuccess', 'onAuthError', 'onAuthRefreshSuccess', 'onAuthRefreshError', 'onAuthLogout', 'onTokenExpired']) {
  kc[name] = () => window.events.push(name);
}
const authenticated = await kc.init({
  onLoad: 'check-sso',
  pkceMethod: 'S256',
  silentCheckSsoRedirectUri: location.origin + '/silent-check-sso.html',
});
document.getElementById('state').textContent = authenticated ? 'signed in as ' + kc.tokenParsed.preferred_username : 'signed out';
</script></body></html>`;

const SILENT = '<!doctype html><html><body><script>parent.postMessage(location.href, location.origin);</script></body></html>';

/**
 * A tiny static server for the browser tests: the test page (real keycloak-js, every default
 * left on), keycloak-js itself, the silent check-sso page and the page's configuration. It
 * runs on its own port, so the page is cross-origin to the IdP as in production.
 */
export async function startAppServer(config: () => AppConfig): Promise<{ url: string; close(): Promise<void> }> {
  const script = await readFile(keycloakJs, 'utf8');
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const send = (type: string, body: string): void => {
      res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    if (path === '/keycloak.js') return send('text/javascript', script);
    if (path === '/config.json') return send('application/json', JSON.stringify(config()));
    if (path === '/silent-check-sso.html') return send('text/html', SILENT);
    if (path === '/' || path === '/index.html') return send('text/html', PAGE);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
