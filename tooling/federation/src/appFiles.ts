import path from 'node:path';
import { installedVersion, sharedDependencies, type SharedMap } from './shared';

/**
 * What every Gatehouse app's build writes, whatever bundles it (webpack: appConfig.ts; Vite: vite.ts; Rsbuild:
 * rsbuild.ts): the names hosts rely on and the static files every app's page serves.
 */

/** The remote entry file, the same name in every app so the manifest is the only thing a host needs. */
export const REMOTE_ENTRY = 'remoteEntry.js';
/** The federation manifest every app publishes; config.json points the shell at it. */
export const MANIFEST = 'mf-manifest.json';
/** The shell's federation name: the one app that loads remotes. */
export const SHELL_NAME = 'gatehouse_shell';
/** The stylesheet every app's page links (emitted from tooling/federation/assets). */
export const STYLESHEET = 'gatehouse.css';
/** The platform's page assets (the stylesheet, the icon). */
export const ASSETS_DIR = path.join(__dirname, '..', 'assets');
/** auth-lib's static pages (silent check-sso), served at every app's root. */
export const AUTH_LIB_PUBLIC_DIR = path.dirname(require.resolve('@gatehouse/auth-lib/public/silent-check-sso.html'));

/** What a Vite or Rsbuild remote's config says about itself (vite.ts, rsbuild.ts); the rest is common to every remote. */
export interface BundlerAppDefinition {
  /** the federation name (`billing`): the manifest's name, the one in the shell's registry */
  readonly name: string;
  /** the page title of the remote's own page */
  readonly title?: string;
  /** the app's folder (`import.meta.dirname` of its config) */
  readonly dir: string;
  /** the dev server's port */
  readonly port: number;
  /** federated modules, e.g. `{ './App': './src/App.tsx' }` */
  readonly exposes: Readonly<Record<string, string>>;
  /** origins whose pages may load this app's files from its dev server (CORS); default the shell's dev origin */
  readonly shellOrigins?: readonly string[];
}

/**
 * The Module Federation options every Vite and Rsbuild remote shares with a webpack one (appConfig.ts): its name, the
 * entry and manifest file names hosts rely on, `./App`, the shell's singletons, and using what is on the page first.
 */
export function remoteFederationOptions(app: BundlerAppDefinition): {
  name: string;
  filename: string;
  exposes: Record<string, string>;
  shared: SharedMap;
  shareStrategy: 'loaded-first';
  manifest: { fileName: string };
  dts: false;
} {
  return {
    name: app.name,
    filename: REMOTE_ENTRY,
    exposes: { ...app.exposes },
    shared: sharedDependencies((pkg) => installedVersion(pkg, app.dir)),
    shareStrategy: 'loaded-first',
    manifest: { fileName: MANIFEST },
    dts: false,
  };
}

/** The HTML page: no inline script or style, so it passes a strict Content-Security-Policy. */
export function htmlPage(title: string, scripts = ''): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/${STYLESHEET}" />${scripts}
  </head>
  <body>
    <div id="root"></div>
    <noscript>Gatehouse needs JavaScript.</noscript>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
