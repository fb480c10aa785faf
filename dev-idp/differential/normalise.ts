/** What a client can see of one answer, flattened to `field → value`, with what must differ replaced. */
export type Observation = Record<string, unknown>;

const ID_FIELDS = new Set(['sub', 'sid', 'jti', 'session_state', 'id', 'kid', 'nonce_hash', 'at_hash']);
const TIME_FIELDS = new Set(['iat', 'exp', 'auth_time', 'nbf', 'createdTimestamp']);
const LIFESPAN_FIELDS = new Set(['expires_in', 'refresh_expires_in']);

/** Hosts become `{base}`; ids and instants become placeholders (their presence and type still count). */
export function normalise(value: unknown, base: string, field = ''): unknown {
  if (ID_FIELDS.has(field)) return typeof value === 'string' && value.length > 0 ? '<id>' : value;
  if (TIME_FIELDS.has(field)) return typeof value === 'number' ? '<time>' : value;
  // Keycloak counts a lifespan from a moment before it answers (299 for 300): compared to the nearest 5 s.
  if (LIFESPAN_FIELDS.has(field)) return typeof value === 'number' ? Math.round(value / 5) * 5 : value;
  if (field === 'scope' && typeof value === 'string') return value.split(' ').sort().join(' ');
  if (typeof value === 'string') return value.split(base).join('{base}');
  if (Array.isArray(value)) return [...value].map((v) => normalise(v, base)).sort();
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, normalise(v, base, k)] as const);
    return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
  }
  return value;
}

/** A token's claims as an observation: each claim under `prefix.claim`, plus its lifetime. */
export function claimsObservation(prefix: string, claims: Record<string, unknown>, base: string): Observation {
  const out: Observation = {};
  for (const [key, value] of Object.entries(claims)) out[`${prefix}.${key}`] = normalise(value, base, key);
  // A lifetime computed from two clock readings can be a second off on either side: compared to the nearest 5 s.
  if (typeof claims.exp === 'number' && typeof claims.iat === 'number') {
    out[`${prefix}.(exp - iat)`] = Math.round((claims.exp - claims.iat) / 5) * 5;
  }
  return out;
}

/** A `Set-Cookie` line as name and attributes (the value only as present/empty). */
export function cookieShape(line: string): { name: string; shape: string } {
  const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
  const name = pair.slice(0, pair.indexOf('='));
  const value = pair.slice(pair.indexOf('=') + 1);
  const attrs = attributes
    .map((a) => {
      const [k = '', v] = a.split('=');
      const key = k.toLowerCase();
      if (key === 'expires') return 'expires';
      if (key === 'max-age') return Number(v) <= 0 ? 'max-age=0' : 'max-age>0';
      // oidc-provider scopes its resume cookie to the attempt's own path: only the shape counts.
      if (key === 'path') return `path=${(v ?? '').replace(/\/auth\/[^/]+$/, '/auth/{attempt}')}`;
      return v === undefined ? key : `${key}=${v.toLowerCase()}`;
    })
    .filter((a) => a !== 'expires' || !attributes.some((b) => /^max-age/i.test(b)))
    .sort();
  return { name, shape: [value ? 'value' : 'empty', ...attrs].join('; ') };
}
