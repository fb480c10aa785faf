import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import type { ReleasePublicKey } from '@gatehouse/federation/release';
import type { ContractReport, Finding, FindingStatus } from './checkContract';
import { readUrl, type ReadOptions } from './net/readUrl';

/** One entry of an mf-manifest.json `shared` list, as far as the check reads it. */
export interface ManifestShared {
  readonly name: string;
  readonly version?: string;
  readonly requiredVersion?: string;
  readonly singleton?: boolean;
}

/** The parts of a federation manifest the check reads. */
export interface FederationManifest {
  readonly name: string;
  readonly shared: readonly ManifestShared[];
}

/** A registry entry of the shell's config.json, as far as the check reads it. */
export interface RegistryEntry {
  readonly name: string;
  readonly manifest: string;
  readonly route?: string;
  /** the public keys the remote's signed releases must verify against (decisions/0117) */
  readonly signingKeys?: readonly ReleasePublicKey[];
}

/** How the check reads a URL (injectable for tests); resolves to the parsed JSON body. */
export type JsonFetcher = (url: string) => Promise<unknown>;

/** Reads JSON over the bounded reader (time, size, same-origin redirects only); errors say what to check. */
export async function fetchJson(url: string, options: ReadOptions = {}): Promise<unknown> {
  const response = await readUrl(url, { ...options, headers: { accept: 'application/json' } });
  if (response.status < 200 || response.status >= 300)
    throw new Error(
      `${url} answered HTTP ${response.status}. Pass the shell's base address (the folder that serves its index.html and mf-manifest.json).`,
    );
  try {
    return JSON.parse(response.body) as unknown;
  } catch {
    throw new Error(`${url} did not answer with JSON.`);
  }
}

/** Parses a federation manifest; throws a message that names the source and what is wrong. */
export function parseManifest(json: unknown, source: string): FederationManifest {
  const value = json as { name?: unknown; shared?: unknown } | null;
  if (typeof value !== 'object' || value === null || typeof value.name !== 'string' || !Array.isArray(value.shared)) {
    throw new Error(`${source} is not a federation manifest (it needs "name" and a "shared" list).`);
  }
  const shared = value.shared.filter((entry): entry is ManifestShared => typeof (entry as { name?: unknown })?.name === 'string');
  return { name: value.name, shared };
}

/** Reads the remote's own build manifest (`dist/mf-manifest.json` unless told otherwise). */
export function readRemoteManifest(file: string): FederationManifest {
  if (!fs.existsSync(file)) {
    throw new Error(`${file} does not exist: build the remote first (\`npm run build\`); the check compares what the build requires.`);
  }
  return parseManifest(JSON.parse(fs.readFileSync(file, 'utf8')), file);
}

/** The shell's registry entries from its config.json. */
export function registryOf(json: unknown): readonly RegistryEntry[] {
  const remotes = (json as { remotes?: unknown } | null)?.remotes;
  return Array.isArray(remotes)
    ? remotes.filter((r): r is RegistryEntry => typeof r?.name === 'string' && typeof r?.manifest === 'string')
    : [];
}

export interface DeployedShellInput {
  readonly shellUrl: string;
  readonly shell: FederationManifest;
  readonly remote: FederationManifest;
  /** the packages every Gatehouse app shares as singletons (federation's SHARED_PACKAGES values) */
  readonly shared: Iterable<string>;
  /** those the runtime refuses in another version (STRICT_PACKAGES) */
  readonly strict: ReadonlySet<string>;
}

/**
 * Compares what a deployed shell shares (its mf-manifest.json) with what the remote's build requires
 * (the remote's own mf-manifest.json): for each shared package, the versions and the singleton setting.
 */
export function checkAgainstDeployedShell(input: DeployedShellInput): ContractReport {
  const findings = [...new Set(input.shared)].map((pkg) => checkShared(pkg, input));
  return { remote: input.remote.name, shell: input.shellUrl, findings, ok: findings.every((f) => f.status !== 'mismatch') };
}

function checkShared(pkg: string, { shell, remote, strict, shellUrl }: DeployedShellInput): Finding {
  const provided = shell.shared.find((entry) => entry.name === pkg);
  const required = remote.shared.find((entry) => entry.name === pkg);
  const provides = provided?.version ?? null;
  const wants = required?.requiredVersion ?? null;
  const remoteInstalled = required?.version ?? null;
  const verdict = (status: FindingStatus, reason: string, fix: string): Finding => ({
    package: pkg,
    status,
    wants,
    remoteInstalled,
    provides,
    reason,
    fix,
  });
  const pin = provides ? `set "${pkg}": "${provides}" in the remote's package.json, \`npm install\` and rebuild` : '';

  if (!provided || provides === null) {
    return verdict(
      'mismatch',
      `The shell at ${shellUrl} does not share ${pkg}.`,
      `Check that ${shellUrl} is a Gatehouse shell; a remote cannot rely on ${pkg} from it.`,
    );
  }
  if (!required) {
    return verdict(
      'warning',
      `The remote's build does not share ${pkg}: it either does not use it or bundles a copy of its own.`,
      `If the remote uses ${pkg}, build it with a Gatehouse preset (defineApp for webpack, defineViteApp or defineRsbuildApp from @gatehouse/federation/vite or /rsbuild), which shares it.`,
    );
  }
  if (provided.singleton && !required.singleton) {
    return verdict(
      'mismatch',
      `The shell shares ${pkg} as a singleton, but the remote's build does not, so the page would run two copies.`,
      `Build the remote with a Gatehouse preset (defineApp for webpack, defineViteApp or defineRsbuildApp from @gatehouse/federation/vite or /rsbuild), which shares ${pkg} as a singleton.`,
    );
  }
  const built = remoteInstalled && semver.valid(remoteInstalled) ? remoteInstalled : null;
  if (built && semver.major(built) !== semver.major(provides)) {
    return verdict(
      'mismatch',
      `The remote is built against ${pkg} ${built}, another major than the shell's ${provides}; the shell refuses to run it.`,
      `Build against the shell's version: ${pin}.`,
    );
  }
  if (wants && semver.validRange(wants) && !semver.satisfies(provides, wants)) {
    if (strict.has(pkg)) {
      return verdict(
        'mismatch',
        `The remote requires ${pkg} ${wants}, the shell shares ${provides}, and ${pkg} is shared strictly: the federation runtime refuses to load the remote.`,
        `Build against the shell's version: ${pin}; or deploy a shell with a newer ${pkg} first.`,
      );
    }
    return verdict(
      'warning',
      `The remote requires ${pkg} ${wants}; it runs with the shell's ${provides}, so anything newer is missing.`,
      `Use only what ${provides} has, or ${pin}.`,
    );
  }
  return verdict('ok', '', '');
}

/** Where the remote's manifest is by default. */
export function defaultRemoteManifest(remoteDir: string): string {
  return path.join(remoteDir, 'dist', 'mf-manifest.json');
}
