import type { ConfigResult, IdentityProviderConfig, RemoteConfig, RemoteOverridesConfig } from './types';

type Json = Record<string, unknown>;

/** A federation name becomes a JavaScript global: an identifier. */
const FEDERATION_NAME = /^[A-Za-z_$][\w$]*$/;
/** One or more path segments, no trailing slash: `/reports`, `/team/reports`. */
const ROUTE = /^(\/[A-Za-z0-9._~-]+)+$/;

const IDP_KEYS = ['url', 'realm', 'clientId', 'trustedOrigins', 'checkLoginIframeInterval', 'expiryWarningSeconds', 'idleTimeoutMinutes'];
const REMOTE_KEYS = ['name', 'manifest', 'module', 'route', 'title', 'realmRoles', 'clientRoles'];

/**
 * Checks a parsed config.json and lists every problem at once (a person fixes them in one go).
 * Unknown keys are problems too: a misspelt `realmRoles` must not silently drop a role requirement.
 */
export function validateConfig(raw: unknown): ConfigResult {
  const problems: string[] = [];
  if (!isObject(raw)) return { ok: false, problems: ['The config must be a JSON object with "identityProvider" and "remotes".'] };
  unknownKeys(raw, ['identityProvider', 'remotes', 'overrides', '$schema'], 'The config', problems);

  const identityProvider = validateIdentityProvider(raw.identityProvider, problems);
  const remotes: RemoteConfig[] = [];
  if (!Array.isArray(raw.remotes)) {
    problems.push('"remotes" must be an array (it may be empty).');
  } else {
    raw.remotes.forEach((entry, index) => {
      const remote = validateRemote(entry, `remotes[${index}]`, problems);
      if (remote) remotes.push(remote);
    });
    duplicates(remotes.map((r) => r.name)).forEach((name) => problems.push(`Two remotes are named "${name}"; names must be unique.`));
    duplicates(remotes.map((r) => r.route)).forEach((route) => problems.push(`Two remotes own the route "${route}"; routes must be unique.`));
  }

  const overrides = raw.overrides === undefined ? undefined : validateOverrides(raw.overrides, problems);

  if (problems.length > 0 || !identityProvider) return { ok: false, problems };
  return { ok: true, config: { identityProvider, remotes, ...(overrides ? { overrides } : {}) } };
}

/** `http(s)://host` with an optional port or `:*` (any port); no path, no wildcard host. */
const ORIGIN_PATTERN = /^https?:\/\/[A-Za-z0-9.-]+(:(\d{1,5}|\*))?$/;

function validateOverrides(raw: unknown, problems: string[]): RemoteOverridesConfig | undefined {
  const where = '"overrides"';
  if (!isObject(raw)) {
    problems.push(`${where} must be an object such as {"allowedOrigins": ["http://localhost:*"]}; leave it out to turn overrides off.`);
    return undefined;
  }
  unknownKeys(raw, ['allowedOrigins'], where, problems);
  const origins = raw.allowedOrigins;
  if (!(Array.isArray(origins) && origins.length > 0 && origins.every((o) => typeof o === 'string' && ORIGIN_PATTERN.test(o)))) {
    problems.push(`${where}.allowedOrigins must be a non-empty array of origins such as "http://localhost:3005" or "http://localhost:*" (scheme, host, optional port; no path).`);
    return undefined;
  }
  return { allowedOrigins: origins as string[] };
}

function validateIdentityProvider(raw: unknown, problems: string[]): IdentityProviderConfig | null {
  const where = '"identityProvider"';
  if (!isObject(raw)) {
    problems.push(`${where} must be an object with "url", "realm" and "clientId".`);
    return null;
  }
  unknownKeys(raw, IDP_KEYS, where, problems);
  const before = problems.length;
  if (!isHttpUrl(raw.url)) problems.push(`${where}.url must be an absolute http(s) URL such as "http://localhost:8080".`);
  if (!isNonEmptyString(raw.realm)) problems.push(`${where}.realm must be a non-empty string.`);
  if (!isNonEmptyString(raw.clientId)) problems.push(`${where}.clientId must be a non-empty string.`);
  if (raw.trustedOrigins !== undefined && !(Array.isArray(raw.trustedOrigins) && raw.trustedOrigins.every(isHttpUrl))) {
    problems.push(`${where}.trustedOrigins must be an array of absolute http(s) origins.`);
  }
  if (raw.checkLoginIframeInterval !== undefined && !(typeof raw.checkLoginIframeInterval === 'number' && raw.checkLoginIframeInterval > 0)) {
    problems.push(`${where}.checkLoginIframeInterval must be a positive number of seconds.`);
  }
  if (raw.expiryWarningSeconds !== undefined && !(typeof raw.expiryWarningSeconds === 'number' && raw.expiryWarningSeconds > 0)) {
    problems.push(`${where}.expiryWarningSeconds must be a positive number of seconds (how long before the session ends the warning shows; default 60).`);
  }
  if (raw.idleTimeoutMinutes !== undefined && !(typeof raw.idleTimeoutMinutes === 'number' && raw.idleTimeoutMinutes >= 0)) {
    problems.push(`${where}.idleTimeoutMinutes must be a number of minutes without activity after which visitors are signed out (0 or absent: never).`);
  }
  if (problems.length > before) return null;
  return {
    url: String(raw.url).replace(/\/+$/, ''),
    realm: raw.realm as string,
    clientId: raw.clientId as string,
    ...(raw.trustedOrigins !== undefined ? { trustedOrigins: raw.trustedOrigins as string[] } : {}),
    ...(raw.checkLoginIframeInterval !== undefined ? { checkLoginIframeInterval: raw.checkLoginIframeInterval as number } : {}),
    ...(raw.expiryWarningSeconds !== undefined ? { expiryWarningSeconds: raw.expiryWarningSeconds as number } : {}),
    ...(raw.idleTimeoutMinutes !== undefined ? { idleTimeoutMinutes: raw.idleTimeoutMinutes as number } : {}),
  };
}

function validateRemote(raw: unknown, where: string, problems: string[]): RemoteConfig | null {
  if (!isObject(raw)) {
    problems.push(`${where} must be an object with "name", "manifest", "route" and "title".`);
    return null;
  }
  const label = isNonEmptyString(raw.name) ? `${where} ("${raw.name}")` : where;
  unknownKeys(raw, REMOTE_KEYS, label, problems);
  const before = problems.length;
  if (!(typeof raw.name === 'string' && FEDERATION_NAME.test(raw.name))) {
    problems.push(`${label}.name must be the remote's federation name, a JavaScript identifier such as "profile".`);
  }
  if (!(isHttpUrl(raw.manifest) || (typeof raw.manifest === 'string' && raw.manifest.startsWith('/')))) {
    problems.push(`${label}.manifest must be the URL of the remote's mf-manifest.json, e.g. "http://localhost:3001/mf-manifest.json".`);
  }
  if (raw.module !== undefined && !(typeof raw.module === 'string' && raw.module.startsWith('./'))) {
    problems.push(`${label}.module must name an exposed module such as "./App".`);
  }
  if (!(typeof raw.route === 'string' && ROUTE.test(raw.route))) {
    problems.push(`${label}.route must be a path such as "/profile" (not "/", no trailing slash).`);
  }
  if (!isNonEmptyString(raw.title)) problems.push(`${label}.title must be a non-empty string (the navigation title).`);
  if (raw.realmRoles !== undefined && !isStringArray(raw.realmRoles)) {
    problems.push(`${label}.realmRoles must be an array of role names, e.g. ["admin"].`);
  }
  if (raw.clientRoles !== undefined && !(isObject(raw.clientRoles) && Object.values(raw.clientRoles).every(isStringArray))) {
    problems.push(`${label}.clientRoles must map client ids to arrays of role names, e.g. {"reports": ["viewer"]}.`);
  }
  if (problems.length > before) return null;
  return {
    name: raw.name as string,
    manifest: raw.manifest as string,
    module: (raw.module as string | undefined) ?? './App',
    route: raw.route as string,
    title: raw.title as string,
    realmRoles: (raw.realmRoles as string[] | undefined) ?? [],
    clientRoles: (raw.clientRoles as Record<string, string[]> | undefined) ?? {},
  };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isNonEmptyString);
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function unknownKeys(raw: Json, known: readonly string[], where: string, problems: string[]): void {
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) problems.push(`${where} has an unknown key "${key}" (known: ${known.filter((k) => k !== '$schema').join(', ')}).`);
  }
}

function duplicates(values: readonly string[]): string[] {
  return [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];
}
