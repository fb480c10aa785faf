import type { RemoteConfig, ShellConfig } from '../config/types';

/** `?remote.<name>=<manifest URL>` loads that registered remote from another address, in this tab. */
export const OVERRIDE_PARAM_PREFIX = 'remote.';
/** sessionStorage key: remote name → manifest URL. It holds URLs only, never a token. */
export const OVERRIDES_STORAGE_KEY = 'gatehouse.remoteOverrides';

/** A remote loaded from another address than the registry's. */
export interface ActiveOverride {
  readonly name: string;
  readonly manifest: string;
  /** the registry's address, which the override replaces */
  readonly registered: string;
  /**
   * the registry pins signing keys for this remote (decisions/0117), which the override's code is not held to: the
   * visitor's opt-in runs it unverified, and the banner says so
   */
  readonly unverified: boolean;
}

/** An override that was asked for and not applied, with the reason a person reads. */
export interface RefusedOverride {
  readonly name: string;
  readonly manifest: string;
  readonly reason: string;
}

export interface OverridesResult {
  /** the registry with the active overrides applied */
  readonly remotes: readonly RemoteConfig[];
  readonly active: readonly ActiveOverride[];
  readonly refused: readonly RefusedOverride[];
  /** the page's query string without the `remote.*` parameters, or null when there were none */
  readonly cleanedSearch: string | null;
}

/** The part of Web Storage the overrides use (sessionStorage in the page; a fake in tests). */
export type OverrideStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * Works out which remotes this tab loads from another address: the ones asked for in the query string
 * now, and the ones kept in sessionStorage from before. Only registered remotes, only when config.json
 * turns overrides on, and only from an allowed origin; everything else is refused with a reason.
 * Stores what is active (so it survives sign-in redirects and reloads of this tab), nothing else.
 */
export function resolveOverrides(config: ShellConfig, search: string, storage: OverrideStorage): OverridesResult {
  const params = new URLSearchParams(search);
  const requested = new Map<string, string>();
  for (const [key, value] of params) {
    if (key.startsWith(OVERRIDE_PARAM_PREFIX)) requested.set(key.slice(OVERRIDE_PARAM_PREFIX.length), value.trim());
  }
  for (const key of requested.keys()) params.delete(`${OVERRIDE_PARAM_PREFIX}${key}`);
  const rest = params.toString();
  const cleanedSearch = requested.size > 0 ? (rest ? `?${rest}` : '') : null;

  const allowed = config.overrides?.allowedOrigins ?? [];
  if (allowed.length === 0) {
    remove(storage);
    const refused = [...requested]
      .filter(([, url]) => url !== '')
      .map(([name, manifest]) => ({
        name,
        manifest,
        reason: 'remote overrides are off for this environment (config.json has no "overrides").',
      }));
    return { remotes: config.remotes, active: [], refused, cleanedSearch };
  }

  const wanted = new Map([...read(storage), ...requested]);
  const active: ActiveOverride[] = [];
  const refused: RefusedOverride[] = [];
  for (const [name, manifest] of wanted) {
    if (manifest === '') continue; // `?remote.<name>=` clears that override
    const remote = config.remotes.find((r) => r.name === name);
    const reason = !remote
      ? `there is no remote named "${name}" in the registry (${config.remotes.map((r) => r.name).join(', ') || 'none'}). An override only moves a registered remote: have "${name}" added to this environment's config.json, or, on a shell you run with npm start, add it to shell/config.local.json (docs/remote-teams.md).`
      : !isHttpUrl(manifest)
        ? 'the manifest must be an absolute http(s) URL such as http://localhost:3005/mf-manifest.json.'
        : !originAllowed(manifest, allowed)
          ? `${new URL(manifest).origin} is not an allowed origin (allowed: ${allowed.join(', ')}).`
          : null;
    if (reason || !remote) refused.push({ name, manifest, reason: reason ?? '' });
    else active.push({ name, manifest, registered: remote.manifest, unverified: (remote.signingKeys?.length ?? 0) > 0 });
  }
  if (active.length > 0)
    storage.setItem(OVERRIDES_STORAGE_KEY, JSON.stringify(Object.fromEntries(active.map((o) => [o.name, o.manifest]))));
  else remove(storage);

  // An overridden remote's code comes from the visitor's chosen address (an allowed origin), not from its team's
  // release: its pinned keys do not apply to it (decisions/0117), which the banner says.
  const remotes = config.remotes.map((remote) => {
    const override = active.find((o) => o.name === remote.name);
    if (!override) return remote;
    const { signingKeys: _notForTheOverride, ...registered } = remote;
    return { ...registered, manifest: override.manifest };
  });
  return { remotes, active, refused, cleanedSearch };
}

/** Forgets every override of this tab. */
export function clearOverrides(storage: OverrideStorage): void {
  remove(storage);
}

/**
 * Whether a URL's origin matches one of the patterns: an exact origin, or `scheme://host:*` for any port
 * of that host.
 */
export function originAllowed(url: string, patterns: readonly string[]): boolean {
  const target = new URL(url);
  return patterns.some((pattern) => {
    const anyPort = pattern.endsWith(':*');
    const allowed = new URL(anyPort ? pattern.slice(0, -2) : pattern);
    if (allowed.protocol !== target.protocol || allowed.hostname !== target.hostname) return false;
    return anyPort || allowed.port === target.port;
  });
}

function read(storage: OverrideStorage): Map<string, string> {
  try {
    const stored = JSON.parse(storage.getItem(OVERRIDES_STORAGE_KEY) ?? '{}') as unknown;
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return new Map();
    return new Map(Object.entries(stored).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return new Map(); // unreadable: start without overrides rather than fail the page
  }
}

function remove(storage: OverrideStorage): void {
  storage.removeItem(OVERRIDES_STORAGE_KEY);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** This tab's sessionStorage, or a storage that keeps nothing when the browser refuses access to it. */
export function tabStorage(): OverrideStorage {
  try {
    return window.sessionStorage;
  } catch {
    return { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
  }
}
