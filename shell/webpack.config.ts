import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { devCspAdditions, securityHeaders, shellCsp } from '@gatehouse/config';
import { defineApp } from '@gatehouse/federation';
import { devRegistry } from './devRegistry';

type WebpackArgv = Parameters<ReturnType<typeof defineApp>>[1];

const PUBLIC_CONFIG: string = path.join(__dirname, 'public', 'config.json');
/** This machine's remotes for the dev shell, git-ignored (devRegistry.ts, decisions/0070). */
const LOCAL_REMOTES: string = path.join(__dirname, 'config.local.json');

// The dev server sends production's security headers, the CSP derived from the dev config.json the way nginx's is
// (@gatehouse/config, the functions deploy/nginx/render.mjs uses), so a hole that production's CSP would hide shows
// in development too.
export default (env: unknown, argv: WebpackArgv) => {
  const { config, local } = devRegistry(PUBLIC_CONFIG, LOCAL_REMOTES);
  const app = defineApp({
    name: 'gatehouse_shell',
    title: 'Gatehouse',
    dir: __dirname,
    port: 3000,
    exposes: { './auth': './src/auth/index.ts' },
    pageHeaders: securityHeaders(shellCsp(config, devCspAdditions(config))),
  })(env, argv);
  if (!local) return app;
  // /config.json is then the merged registry, ahead of public/ (read again per request: no restart for an edit
  // of a remote's address; a new origin needs one, for the CSP).
  app.devServer.setupMiddlewares = (middlewares) => [
    {
      name: 'gatehouse-local-remotes',
      path: '/config.json',
      middleware: (_request: IncomingMessage, response: ServerResponse) => {
        response.setHeader('Content-Type', 'application/json');
        response.setHeader('Cache-Control', 'no-cache');
        response.end(JSON.stringify(devRegistry(PUBLIC_CONFIG, LOCAL_REMOTES).config, null, 2));
      },
    },
    ...middlewares,
  ];
  return app;
};
