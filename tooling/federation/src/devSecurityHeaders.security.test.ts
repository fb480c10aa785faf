// Security round (issue 24): the dev servers send the same security headers as production's nginx
// (deploy/nginx/render.mjs securityHeaders); only the CSP differs (the shell passes its full one as pageHeaders).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEV_SECURITY_HEADERS } from './devSecurityHeaders';

test('every header nginx sends besides the CSP, with the same value; and a CSP that blocks framing and <base> elsewhere', () => {
  const render = pathToFileURL(path.join(__dirname, '..', '..', '..', 'deploy', 'nginx', 'render.mjs')).href;
  const run = spawnSync(
    process.execPath,
    ['-e', `import(${JSON.stringify(render)}).then((m) => process.stdout.write(JSON.stringify(m.securityHeaders('CSP'))))`],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  const production = JSON.parse(run.stdout) as Record<string, string>;

  expect({ ...DEV_SECURITY_HEADERS, 'Content-Security-Policy': 'CSP' }).toEqual(production);
  expect(DEV_SECURITY_HEADERS['Content-Security-Policy']).toBe("frame-ancestors 'self'; base-uri 'self'; object-src 'none'");
});
