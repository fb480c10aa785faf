import fs from 'node:fs';
import path from 'node:path';

/** Where the files the scaffold reads and edits are, relative to the repository root. */
export const PATHS = {
  remotes: 'remotes',
  registry: 'shell/public/config.json',
  realm: 'deploy/keycloak/gatehouse-realm.json',
  shellManifest: 'shell/package.json',
  federationManifest: 'tooling/federation/package.json',
  lockfile: 'package-lock.json',
} as const;

/**
 * Libraries a remote's code uses that the shell does not share: each remote bundles its own copy, at the version the
 * demo remotes are tested with (the repository's lockfile). TanStack Query calls the remote's API (src/ApiCard.tsx, from @gatehouse/remote-kit).
 */
export const REMOTE_LIBRARIES: readonly string[] = ['@tanstack/react-query'];

/** A remote that already exists, as a folder or as a registry entry. */
export interface ExistingRemote {
  readonly name: string;
  readonly route: string | null;
  readonly port: number | null;
}

/** The registry's part the scaffold needs (shell/public/config.json). */
export interface RegistryFile {
  readonly text: string;
  readonly identityProvider: { readonly url: string; readonly realm: string; readonly clientId: string };
  readonly remotes: readonly {
    readonly name: string;
    readonly route: string;
    readonly manifest: string;
    readonly api?: { readonly url: string; readonly audience: string; readonly scope: string };
  }[];
}

/** The demo realm's part the scaffold needs (deploy/keycloak/gatehouse-realm.json). */
export interface RealmFile {
  readonly text: string;
  readonly realmRoles: readonly string[];
  /** client id → its roles */
  readonly clientRoles: Readonly<Record<string, readonly string[]>>;
  /** client id → its index in `clients`, its redirect URIs and its optional client scopes */
  readonly clients: Readonly<
    Record<string, { readonly index: number; readonly redirectUris: readonly string[]; readonly optionalClientScopes: readonly string[] }>
  >;
  /** the names of the realm's client scopes (`profile-api`: a token for that API alone, decisions/0055) */
  readonly clientScopes: readonly string[];
}

/** Everything in the repository that a new remote must not collide with, read once before anything is written. */
export interface Workspace {
  readonly root: string;
  /** folder names under remotes/ */
  readonly remoteFolders: readonly string[];
  readonly remotes: readonly ExistingRemote[];
  /** ports some app of the repository already uses (shell, identity provider, remotes) */
  readonly usedPorts: ReadonlySet<number>;
  readonly registry: RegistryFile;
  readonly realm: RealmFile;
  /** package → version every app pins (the shell's shared dependencies, the federation settings) */
  readonly versions: Readonly<Record<string, string>>;
}

/** Reads the repository's state; throws with the file's name when one is missing or not JSON. */
export function readWorkspace(root: string): Workspace {
  const registry = readRegistry(root);
  const realm = readRealm(root);
  const remotesDir = path.join(root, PATHS.remotes);
  const remoteFolders = fs.existsSync(remotesDir)
    ? fs
        .readdirSync(remotesDir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
    : [];

  const remotes: ExistingRemote[] = remoteFolders.map((name) => ({
    name,
    route: registry.remotes.find((r) => r.name === name)?.route ?? null,
    port: devServerPort(path.join(remotesDir, name)),
  }));
  for (const entry of registry.remotes) {
    if (!remoteFolders.includes(entry.name)) remotes.push({ name: entry.name, route: entry.route, port: localPort(entry.manifest) });
  }

  const usedPorts = new Set<number>();
  for (const remote of remotes) if (remote.port !== null) usedPorts.add(remote.port);
  for (const entry of registry.remotes) {
    const port = localPort(entry.manifest);
    if (port !== null) usedPorts.add(port);
  }
  const shellPort = devServerPort(path.join(root, 'shell'));
  if (shellPort !== null) usedPorts.add(shellPort);
  const idpPort = localPort(registry.identityProvider.url);
  if (idpPort !== null) usedPorts.add(idpPort);

  const shell = readJson<{ dependencies?: Record<string, string> }>(root, PATHS.shellManifest);
  const federation = readJson<{ name: string; version: string; devDependencies?: Record<string, string> }>(root, PATHS.federationManifest);
  // the Vite and Rsbuild tool versions the federation preset is tested with (its devDependencies)
  const bundlerTools = Object.fromEntries(Object.entries(federation.devDependencies ?? {}).filter(([pkg]) => BUNDLER_TOOLS.includes(pkg)));
  const lockfile = readJson<{ packages?: Record<string, { version?: string }> }>(root, PATHS.lockfile);
  const libraries: Record<string, string> = {};
  for (const pkg of REMOTE_LIBRARIES) {
    const version = lockfile.packages?.[`node_modules/${pkg}`]?.version;
    if (!version) throw new Error(`${PATHS.lockfile} has no ${pkg}, which a new remote depends on; run \`npm install\` first.`);
    libraries[pkg] = version;
  }
  return {
    root,
    remoteFolders,
    remotes,
    usedPorts,
    registry,
    realm,
    versions: { ...bundlerTools, ...libraries, ...shell.dependencies, [federation.name]: federation.version },
  };
}

function readRegistry(root: string): RegistryFile {
  const text = readText(root, PATHS.registry);
  const json = parseJson<{ identityProvider?: RegistryFile['identityProvider']; remotes?: RegistryFile['remotes'] }>(text, PATHS.registry);
  if (!json.identityProvider || !Array.isArray(json.remotes)) {
    throw new Error(
      `${PATHS.registry} must have "identityProvider" and a "remotes" array (its format: tooling/config/config.schema.json).`,
    );
  }
  return { text, identityProvider: json.identityProvider, remotes: json.remotes };
}

function readRealm(root: string): RealmFile {
  const text = readText(root, PATHS.realm);
  const json = parseJson<{
    roles?: { realm?: { name: string }[]; client?: Record<string, { name: string }[]> };
    clients?: { clientId: string; redirectUris?: string[]; optionalClientScopes?: string[] }[];
    clientScopes?: { name: string }[];
  }>(text, PATHS.realm);
  const clients: Record<string, { index: number; redirectUris: string[]; optionalClientScopes: string[] }> = {};
  (json.clients ?? []).forEach((client, index) => {
    clients[client.clientId] = { index, redirectUris: client.redirectUris ?? [], optionalClientScopes: client.optionalClientScopes ?? [] };
  });
  return {
    text,
    realmRoles: (json.roles?.realm ?? []).map((r) => r.name),
    clientRoles: Object.fromEntries(Object.entries(json.roles?.client ?? {}).map(([client, roles]) => [client, roles.map((r) => r.name)])),
    clients,
    clientScopes: (json.clientScopes ?? []).map((scope) => scope.name),
  };
}

/** The packages a Vite or Rsbuild remote builds with, at the versions `@gatehouse/federation` pins for its presets. */
export const BUNDLER_TOOLS: readonly string[] = [
  'vite',
  '@module-federation/vite',
  '@rsbuild/core',
  '@rsbuild/plugin-react',
  '@module-federation/rsbuild-plugin',
];

/** The configs an app's dev port is written in: defineApp (webpack), defineViteApp, defineRsbuildApp. */
const CONFIG_FILES = ['webpack.config.ts', 'vite.config.ts', 'rsbuild.config.ts'];

/** The `port: 3001` of an app folder's config; null when there is none. */
function devServerPort(dir: string): number | null {
  for (const name of CONFIG_FILES) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    const match = /\bport:\s*(\d+)/.exec(fs.readFileSync(file, 'utf8'));
    if (match) return Number(match[1]);
  }
  return null;
}

function localPort(url: string): number | null {
  try {
    const parsed = new URL(url);
    if (parsed.hostname !== 'localhost' && parsed.hostname !== '127.0.0.1') return null;
    return parsed.port ? Number(parsed.port) : null;
  } catch {
    return null;
  }
}

function readText(root: string, file: string): string {
  const full = path.join(root, file);
  if (!fs.existsSync(full)) throw new Error(`${file} is missing; run the command from a Gatehouse checkout (or pass --root <dir>).`);
  return fs.readFileSync(full, 'utf8');
}

function readJson<T>(root: string, file: string): T {
  return parseJson<T>(readText(root, file), file);
}

function parseJson<T>(text: string, file: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it first.`, {
      cause: error,
    });
  }
}
