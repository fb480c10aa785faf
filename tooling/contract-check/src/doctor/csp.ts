/** A Content-Security-Policy as directive name → source list (the first policy's; names lower-case). */
export type Csp = ReadonlyMap<string, readonly string[]>;

export function parseCsp(header: string): Csp {
  const policy = new Map<string, string[]>();
  for (const part of header.split(',')[0]?.split(';') ?? []) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !policy.has(name.toLowerCase())) policy.set(name.toLowerCase(), sources);
  }
  return policy;
}

/** The sources that govern `directive`: its own, else `default-src` (CSP level 3 fallback for these three). */
function sourcesFor(csp: Csp, directive: 'connect-src' | 'frame-src' | 'script-src'): readonly string[] | undefined {
  const fallback = directive === 'frame-src' ? (csp.get('child-src') ?? csp.get('default-src')) : csp.get('default-src');
  return csp.get(directive) ?? fallback;
}

/** Whether `directive` of a page at `self` lets it reach `origin` (an absent directive and fallback allow all). */
export function cspAllows(csp: Csp, directive: 'connect-src' | 'frame-src' | 'script-src', origin: string, self: string): boolean {
  const sources = sourcesFor(csp, directive);
  if (!sources) return true;
  const target = new URL(origin);
  return sources.some((source) => sourceMatches(source, target, new URL(self)));
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

function sourceMatches(raw: string, target: URL, self: URL): boolean {
  const source = raw.toLowerCase();
  if (source === "'self'") return target.origin === self.origin;
  if (source === '*') return target.protocol === 'https:' || target.protocol === 'http:';
  if (/^[a-z][a-z0-9+.-]*:$/.test(source)) return target.protocol === source || (source === 'http:' && target.protocol === 'https:');
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^:/]+|\*)(?::(\d+|\*))?(?:\/.*)?$/.exec(source);
  if (!match) return false;
  const [, scheme, wildcard, host = '', port] = match;
  const schemeOk = scheme
    ? `${scheme}:` === target.protocol || (scheme === 'http' && target.protocol === 'https:')
    : target.protocol === self.protocol || target.protocol === 'https:';
  const name = target.hostname;
  const hostOk = host === '*' || (wildcard ? name.endsWith(`.${host}`) : name === host);
  const targetPort = target.port || DEFAULT_PORT[target.protocol] || '';
  const wantedPort = port ?? (scheme ? DEFAULT_PORT[`${scheme}:`] : DEFAULT_PORT[target.protocol]);
  return schemeOk && hostOk && (port === '*' || wantedPort === targetPort);
}
