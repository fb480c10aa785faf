import http from 'node:http';
import { expect, test } from '@playwright/test';
import { openWithSession } from '../../support/flows';
import { REMOTES, SHELL } from '../../support/system';

// Security round. The dev registry allows overrides from http://localhost:*. A manifest served
// from an allowed origin names its code elsewhere (publicPath http://127.0.0.1:3097/): before any of that
// code is requested the shell refuses it, in the remote's slot only, and the other origin is never asked.
const MANIFEST_PORT = 3096;
const ELSEWHERE = 'http://127.0.0.1:3097';

const servers: http.Server[] = [];
const hitsElsewhere: string[] = [];

async function listen(server: http.Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  servers.push(server);
}

test.beforeAll(async () => {
  const original = (await (await fetch(`${REMOTES.profile}/mf-manifest.json`)).json()) as { metaData: Record<string, unknown> };
  const manifests: Record<string, string> = {
    '/mf-manifest.json': JSON.stringify({ ...original, metaData: { ...original.metaData, publicPath: `${ELSEWHERE}/` } }),
    // the runtime turns any publicPath into a string (`${publicPath}${file}`): an array names the same origin
    '/array/mf-manifest.json': JSON.stringify({ ...original, metaData: { ...original.metaData, publicPath: [`${ELSEWHERE}/`] } }),
  };
  await listen(
    http.createServer((request, response) => {
      const manifest = manifests[request.url ?? ''];
      response.writeHead(manifest ? 200 : 404, { 'content-type': 'application/json', 'access-control-allow-origin': SHELL });
      response.end(manifest ?? '');
    }),
    MANIFEST_PORT,
    'localhost',
  );
  // the code's origin: it would serve the remote's real files (and so run in the signed-in page)
  await listen(
    http.createServer((request, response) => {
      hitsElsewhere.push(request.url ?? '');
      http.get(new URL(request.url ?? '/', REMOTES.profile), (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
    }),
    3097,
    '127.0.0.1',
  );
});
test.afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

test('an allowed manifest whose publicPath names another origin is refused before that origin is asked for code', async ({ page }) => {
  await openWithSession(page, 'alice', `/profile?remote.profile=http://localhost:${MANIFEST_PORT}/mf-manifest.json`);

  const slot = page.getByRole('alert');
  await expect(slot).toContainText(
    `The code of the remote "profile" was not loaded: its manifest names code at ${ELSEWHERE}, which is not an allowed override origin (allowed: http://localhost:*).`,
  );
  await expect(page.getByRole('banner')).toContainText('Alice Anders');
  expect(hitsElsewhere).toEqual([]);
});

test('an allowed manifest whose publicPath is not a string (an array naming another origin) is refused, not skipped', async ({ page }) => {
  await openWithSession(page, 'alice', `/profile?remote.profile=http://localhost:${MANIFEST_PORT}/array/mf-manifest.json`);

  await expect(page.getByRole('alert')).toContainText(
    `The code of the remote "profile" was not loaded: its manifest's publicPath is an array, not a string URL.`,
  );
  await expect(page.getByRole('banner')).toContainText('Alice Anders');
  expect(hitsElsewhere).toEqual([]);
});
