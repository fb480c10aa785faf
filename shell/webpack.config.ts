import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { defineApp } from '@gatehouse/federation';

type WebpackArgv = Parameters<ReturnType<typeof defineApp>>[1];

/** The part of deploy/nginx/render.mjs (JSDoc-typed, checked by tsconfig.scripts.json) this config uses. */
interface NginxRender {
  shellCsp(config: unknown, extra?: { connectSrc?: string[] }): string;
  devCspAdditions(config: unknown): { connectSrc?: string[] };
  securityHeaders(csp: string): Record<string, string>;
}
const RENDER: string = path.join(__dirname, '..', 'deploy', 'nginx', 'render.mjs');

/**
 * This machine's remotes for the dev shell (git-ignored, decisions/0070): `{ "remotes": [ …registry entries… ] }`.
 * A team whose remote lives in its own repository attaches it to `npm start`'s shell without editing the
 * platform's files; an entry named like a registered remote replaces it. `npm run new-remote -- --outside` writes it.
 */
export const LOCAL_REMOTES: string = path.join(__dirname, 'config.local.json');

interface Registry {
  remotes?: Array<{ name?: unknown }>;
  [key: string]: unknown;
}

/** public/config.json with the remotes of config.local.json added (or replacing those of the same name). */
function devConfig(): { config: Registry; local: boolean } {
  const config = JSON.parse(readFileSync(path.join(__dirname, 'public', 'config.json'), 'utf8')) as Registry;
  if (!existsSync(LOCAL_REMOTES)) return { config, local: false };
  let local: Registry;
  try {
    local = JSON.parse(readFileSync(LOCAL_REMOTES, 'utf8')) as Registry;
  } catch (error) {
    throw new Error(`${LOCAL_REMOTES} is not JSON (${(error as Error).message}): fix it or delete it.`, { cause: error });
  }
  if (!Array.isArray(local.remotes))
    throw new Error(`${LOCAL_REMOTES} needs { "remotes": [ … ] } (entries as in shell/public/config.json): fix it or delete it.`);
  const added = local.remotes;
  const names = new Set(added.map((remote) => remote.name));
  const remotes = [...(config.remotes ?? []).filter((remote) => !names.has(remote.name)), ...added];
  return { config: { ...config, remotes }, local: true };
}

// The dev server sends production's security headers, the CSP derived from the dev config.json the way nginx's is,
// so a hole that production's CSP would hide shows in development too.
export default async (env: unknown, argv: WebpackArgv) => {
  const render = (await import(RENDER)) as NginxRender;
  const { config, local } = devConfig();
  const app = defineApp({
    name: 'gatehouse_shell',
    title: 'Gatehouse',
    dir: __dirname,
    port: 3000,
    exposes: { './auth': './src/auth/index.ts' },
    pageHeaders: render.securityHeaders(render.shellCsp(config, render.devCspAdditions(config))),
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
        response.end(JSON.stringify(devConfig().config, null, 2));
      },
    },
    ...middlewares,
  ];
  return app;
};
