import { readFileSync } from 'node:fs';
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

// The dev server sends production's security headers, the CSP derived from the dev config.json the way nginx's is,
// so a hole that production's CSP would hide shows in development too.
export default async (env: unknown, argv: WebpackArgv) => {
  const render = (await import(RENDER)) as NginxRender;
  const config: unknown = JSON.parse(readFileSync(path.join(__dirname, 'public', 'config.json'), 'utf8'));
  return defineApp({
    name: 'gatehouse_shell',
    title: 'Gatehouse',
    dir: __dirname,
    port: 3000,
    exposes: { './auth': './src/auth/index.ts' },
    pageHeaders: render.securityHeaders(render.shellCsp(config, render.devCspAdditions(config))),
  })(env, argv);
};
