import { AuthError } from '../errors';
import type { ApiBinding, Session, SessionConfig, SessionEventsConfig } from '../types';

/** The configuration a session runs with: validated, normalised, defaults filled in. */
export type ResolvedConfig = Session['config'];

const KNOWN_KEYS: readonly (keyof SessionConfig)[] = [
  'url',
  'realm',
  'clientId',
  'trustedOrigins',
  'silentCheckSsoRedirectUri',
  'checkLoginIframeInterval',
  'messageReceiveTimeout',
  'minValidity',
  'timeout',
  'expiryWarningSeconds',
  'idleTimeoutMinutes',
  'sessionWatchSeconds',
  'sessionWatchIdleSeconds',
  'scopes',
  'apis',
  'sessionEvents',
];

function invalid(message: string): AuthError {
  return new AuthError('invalid-config', `Invalid auth config: ${message}`);
}

function requireName(config: Record<string, unknown>, key: 'realm' | 'clientId', example: string): string {
  const value = config[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(`config.${key} is missing or empty: set it to your ${key === 'realm' ? 'realm name' : 'client id'}, e.g. "${example}".`);
  }
  return value.trim();
}

function parseHttpUrl(value: unknown, key: string, example: string): URL {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(`config.${key} is missing: set it to an absolute http(s) URL, e.g. "${example}".`);
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw invalid(`config.${key} is "${value}", which is not an absolute URL: use e.g. "${example}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`config.${key} is "${value}": only http: and https: URLs work, e.g. "${example}".`);
  }
  return url;
}

function positiveNumber(config: Record<string, unknown>, key: keyof SessionConfig, fallback: number, unit: string): number {
  const value = config[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw invalid(`config.${key} is ${JSON.stringify(value)}: it must be a positive number of ${unit} (default ${fallback}).`);
  }
  return value;
}

function scopes(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((scope) => typeof scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))) {
    throw invalid(
      `config.scopes is ${JSON.stringify(value)}: list the extra scopes to sign in with as strings without spaces or quotes, e.g. ["role-audiences", "profile-api"].`,
    );
  }
  return [...new Set(value as string[])];
}

const SCOPE_NAME = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The registry's APIs (decisions/0108): each `{ url, audience, scope }`, as a remote's `api` names them. */
function apis(value: unknown): readonly ApiBinding[] | null {
  if (value === undefined) return null;
  const example = '[{ "url": "https://api.example.com/profile", "audience": "profile-api", "scope": "profile-api" }]';
  if (!Array.isArray(value)) throw invalid(`config.apis must be an array of the registry's APIs, e.g. ${example}.`);
  return value.map((entry: unknown, index) => {
    const api = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const { url, audience, scope } = api;
    if (typeof audience !== 'string' || audience.trim() === '' || typeof scope !== 'string' || !SCOPE_NAME.test(scope)) {
      throw invalid(`config.apis[${index}] is ${JSON.stringify(entry)}: give { url, audience, scope }, e.g. ${example}.`);
    }
    return { url: parseHttpUrl(url, `apis[${index}].url`, 'https://api.example.com/profile').href, audience, scope };
  });
}

/** The session-events service (`{ url }`), or null when absent; its URL carries no query or fragment (no token goes in it). */
function sessionEvents(value: unknown): SessionEventsConfig | null {
  if (value === undefined || value === null) return null;
  const example = '{ "url": "https://events.example.com" }';
  const url = typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).url : undefined;
  const parsed = parseHttpUrl(url, 'sessionEvents.url', 'https://events.example.com');
  if (parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') {
    throw invalid(
      `config.sessionEvents.url is "${String(url)}": give the service's URL without a query, fragment or credentials, e.g. ${example}.`,
    );
  }
  return { url: parsed.href.replace(/\/+$/, '') };
}

function trustedOrigins(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw invalid('config.trustedOrigins must be an array of origins, e.g. ["https://api.example.com"].');
  }
  return value.map((entry: unknown, index) => {
    const url = parseHttpUrl(entry, `trustedOrigins[${index}]`, 'https://api.example.com');
    if (url.origin !== String(entry).replace(/\/$/, '')) {
      throw invalid(`config.trustedOrigins[${index}] is "${String(entry)}": list origins only (scheme, host, port), e.g. "${url.origin}".`);
    }
    return url.origin;
  });
}

/**
 * Checks a config the way a person would want to hear about it: one message naming the field and
 * what to put there. Unknown keys are refused because a misspelt option would otherwise be ignored
 * silently (and the default used instead).
 */
export function resolveConfig(input: unknown, origin: string): ResolvedConfig {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid(
      'createSession() needs an object such as { url: "http://localhost:8080", realm: "gatehouse", clientId: "gatehouse-shell" }.',
    );
  }
  const config = input as Record<string, unknown>;
  const unknown = Object.keys(config).filter((key) => !(KNOWN_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw invalid(
      `unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}: the options are ${KNOWN_KEYS.join(', ')}.`,
    );
  }

  const idp = parseHttpUrl(config.url, 'url', 'http://localhost:8080');
  if (/\/realms(\/|$)/.test(idp.pathname)) {
    throw invalid(
      `config.url is "${String(config.url)}": give the provider's base URL without "/realms/…" (e.g. "${idp.origin}"), and the realm in config.realm.`,
    );
  }
  const realm = requireName(config, 'realm', 'gatehouse');
  const clientId = requireName(config, 'clientId', 'gatehouse-shell');
  const silent =
    config.silentCheckSsoRedirectUri === undefined
      ? `${origin}/silent-check-sso.html`
      : parseHttpUrl(config.silentCheckSsoRedirectUri, 'silentCheckSsoRedirectUri', `${origin}/silent-check-sso.html`).href;

  return {
    url: idp.href.replace(/\/+$/, ''),
    realm,
    clientId,
    trustedOrigins: trustedOrigins(config.trustedOrigins),
    scopes: scopes(config.scopes),
    apis: apis(config.apis),
    sessionEvents: sessionEvents(config.sessionEvents),
    silentCheckSsoRedirectUri: silent,
    checkLoginIframeInterval: positiveNumber(config, 'checkLoginIframeInterval', 5, 'seconds'),
    messageReceiveTimeout: positiveNumber(config, 'messageReceiveTimeout', 10000, 'milliseconds'),
    minValidity: positiveNumber(config, 'minValidity', 5, 'seconds'),
    timeout: positiveNumber(config, 'timeout', 10000, 'milliseconds'),
    expiryWarningSeconds: positiveNumber(config, 'expiryWarningSeconds', 60, 'seconds'),
    idleTimeoutMinutes: config.idleTimeoutMinutes === 0 ? 0 : positiveNumber(config, 'idleTimeoutMinutes', 0, 'minutes'),
    // decisions/0029: a session ended at the provider is noticed within 30 s with a check every 15 s
    sessionWatchSeconds: config.sessionWatchSeconds === 0 ? 0 : positiveNumber(config, 'sessionWatchSeconds', 15, 'seconds (0: off)'),
    // decisions/0090: a visible page nobody uses is checked every 4 min, so it notices within 5 min
    sessionWatchIdleSeconds: positiveNumber(config, 'sessionWatchIdleSeconds', 240, 'seconds'),
  };
}

/** Lists the fields in which two resolved configs differ (empty when they are the same). */
export function configDifferences(a: ResolvedConfig, b: ResolvedConfig): string[] {
  return (Object.keys(a) as (keyof ResolvedConfig)[]).filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]));
}
