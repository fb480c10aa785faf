import { readFileSync } from 'node:fs';
import path from 'node:path';
import { devCspAdditions, securityHeaders, shellCsp } from '@gatehouse/config';
import { defineApp } from '@gatehouse/federation';

type WebpackArgv = Parameters<ReturnType<typeof defineApp>>[1];

// The dev server sends production's security headers, the CSP derived from the dev config.json the way nginx's is
// (@gatehouse/config, the functions deploy/nginx/render.mjs uses), so a hole that production's CSP would hide shows
// in development too.
export default (env: unknown, argv: WebpackArgv) => {
  const config: unknown = JSON.parse(readFileSync(path.join(__dirname, 'public', 'config.json'), 'utf8'));
  return defineApp({
    name: 'gatehouse_shell',
    title: 'Gatehouse',
    dir: __dirname,
    port: 3000,
    exposes: { './auth': './src/auth/index.ts' },
    pageHeaders: securityHeaders(shellCsp(config, devCspAdditions(config))),
  })(env, argv);
};
