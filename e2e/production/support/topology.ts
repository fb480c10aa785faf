import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PREVIEW_CONFIG, REPO_ROOT, runPreview, type PreviewProcess } from './previewProcess';

/** The production topology's origins (deploy/config/config.preview.json, realm redirect URIs). */
export const SHELL = 'http://localhost:4000';
export const REMOTE_ORIGINS = { profile: 'http://localhost:4001', admin: 'http://localhost:4002', reports: 'http://localhost:4003' };
export const IDENTITY_PROVIDER = 'http://localhost:8080';

/** A JSON copy of the preview config, to change for a scenario. */
export interface ShellConfigJson {
  identityProvider: { url: string; realm: string; clientId: string; [key: string]: unknown };
  remotes: Array<{ name: string; manifest: string; route: string; title: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

export function previewConfig(): ShellConfigJson {
  return JSON.parse(readFileSync(PREVIEW_CONFIG, 'utf8')) as ShellConfigJson;
}

/**
 * The preview config with `signingKeys` pinned for the remotes named (decisions/0117): the shell then runs only their
 * releases that verify against those keys. Default: the profile remote, pinned to the suite's test release key
 * (support/releaseKey.ts), which its production build is signed with.
 */
export function pinnedConfig(keys: readonly object[], remotes: readonly string[] = ['profile']): ShellConfigJson {
  const config = previewConfig();
  for (const remote of config.remotes) if (remotes.includes(remote.name)) remote['signingKeys'] = keys;
  return config;
}

/** What a scenario changes in the production topology; everything else is the real preview. */
export interface Scenario {
  /** the served /config.json: an object (as JSON), raw text, or null for "no file" (HTTP 404) */
  config?: ShellConfigJson | string | null;
  /**
   * Per remote: null = its server is down (no server block, nothing listens on its port), or a
   * function that breaks a copy of its real build (the copy is served instead of remotes/<name>/dist),
   * or a folder to serve as it is (another build of the remote; may be a symlink, swapped while serving).
   */
  remotes?: Record<string, null | string | ((buildCopy: string) => void)>;
  /** the shell's port (default 4000, SHELL); the remotes listen where the config's manifest URLs say */
  shellPort?: number;
}

export interface Topology {
  stop(): Promise<void>;
}

/**
 * Starts nginx with the real production builds and the deployable server blocks, as `npm run preview`
 * does, changed only as the scenario says. The identity provider is started once for all specs
 * (support/globalSetup.ts). Every spec uses the same ports, so specs run one at a time.
 */
export async function startTopology(scenario: Scenario = {}): Promise<Topology> {
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-production-'));
  let configFile = PREVIEW_CONFIG;
  if (scenario.config !== undefined) {
    configFile = join(work, 'config.json');
    if (scenario.config !== null) {
      writeFileSync(configFile, typeof scenario.config === 'string' ? scenario.config : JSON.stringify(scenario.config, null, 2));
    }
  }
  const args = ['--config', configFile, '--preview-dir', join(work, 'nginx'), '--no-idp'];
  if (scenario.shellPort !== undefined) args.push('--shell-port', String(scenario.shellPort));
  for (const [name, breakIt] of Object.entries(scenario.remotes ?? {})) {
    if (breakIt === null) {
      args.push('--remote', `${name}=down`);
      continue;
    }
    if (typeof breakIt === 'string') {
      args.push('--remote', `${name}=${breakIt}`);
      continue;
    }
    const copy = join(work, name);
    cpSync(join(REPO_ROOT, 'remotes', name, 'dist'), copy, { recursive: true });
    breakIt(copy);
    args.push('--remote', `${name}=${copy}`);
  }
  let preview: PreviewProcess;
  try {
    preview = await runPreview(args);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  return {
    async stop() {
      await preview.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The files of a remote's exposed module (`./App`) according to its mf-manifest.json. */
export function exposedFiles(buildDir: string, expose = './App'): string[] {
  const manifest = JSON.parse(readFileSync(join(buildDir, 'mf-manifest.json'), 'utf8')) as {
    exposes: Array<{ path: string; assets: { js: { sync: string[]; async: string[] } } }>;
  };
  const entry = manifest.exposes.find((e) => e.path === expose);
  if (!entry) throw new Error(`${buildDir}/mf-manifest.json exposes no ${expose}`);
  const own = entry.assets.js.sync.filter((file) => file.includes('__federation_expose_'));
  return own.length > 0 ? own : entry.assets.js.sync;
}

/** The container's global name and entry file according to a build's mf-manifest.json. */
export function containerOf(buildDir: string): { globalName: string; entry: string } {
  const manifest = JSON.parse(readFileSync(join(buildDir, 'mf-manifest.json'), 'utf8')) as {
    metaData: { globalName: string; remoteEntry: { name: string; path: string } };
  };
  const { remoteEntry } = manifest.metaData;
  return { globalName: manifest.metaData.globalName, entry: join(remoteEntry.path ?? '', remoteEntry.name) };
}
