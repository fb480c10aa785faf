/**
 * Keycloak's Level of Authentication (LoA) for step-up, the part the dev IdP implements: the realm's
 * (or client's) `acr.loa.map` names levels (`{"silver":1,"gold":2}`), a client asks for a level with
 * `acr_values` or an `acr` claim of the ID token in `claims` (essential or not), and tokens carry the
 * reached level in `acr`. Written from Keycloak 26's AcrUtils, AuthorizationEndpoint and AcrProtocolMapper.
 */

/** Level name → level number. */
export type LoaMap = Readonly<Record<string, number>>;

/** The acr values a client asked for in one authorization request. */
export interface AcrRequest {
  /** values of an essential `acr` claim of the ID token in `claims` */
  readonly essential: readonly string[];
  /** every asked-for value: `acr_values` first, then the `claims` parameter's (essential or not) */
  readonly all: readonly string[];
}

/** Keycloak's lowest level: a session reused from an earlier sign-in (SSO). */
export const MINIMUM_LOA = 0;

/**
 * Parses an `acr.loa.map` attribute. A map that is not an object of whole numbers ≥ 0 throws an error
 * saying so (Keycloak logs a warning and ignores the map, which silently turns step-up off).
 */
export function parseLoaMap(text: string | undefined): LoaMap {
  if (text === undefined || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const valid =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every((level) => Number.isInteger(level) && (level as number) >= 0);
  if (!valid) throw new Error(`expected a JSON object of level numbers such as {"silver":1,"gold":2}, got ${JSON.stringify(text)}`);
  return Object.freeze({ ...(parsed as Record<string, number>) });
}

/** The acr values of an authorization request's `claims` (JSON) and `acr_values` (space-separated) parameters. */
export function acrRequest(claims: unknown, acrValues: unknown): AcrRequest {
  const fromClaims: string[] = [];
  let essential = false;
  if (typeof claims === 'string' && claims !== '') {
    try {
      const acr = (JSON.parse(claims) as { id_token?: { acr?: { essential?: unknown; values?: unknown; value?: unknown } } })?.id_token
        ?.acr;
      if (acr && typeof acr === 'object') {
        essential = acr.essential === true;
        if (Array.isArray(acr.values)) fromClaims.push(...acr.values.filter((v): v is string => typeof v === 'string'));
        else if (typeof acr.value === 'string') fromClaims.push(acr.value);
      }
    } catch {
      // Keycloak ignores a claims parameter that is not JSON (with a warning)
    }
  }
  const fromValues = typeof acrValues === 'string' ? acrValues.split(' ').filter(Boolean) : [];
  return { essential: essential ? fromClaims : [], all: [...fromValues, ...fromClaims] };
}

/** The level an acr value stands for: its entry in the map, else the value as a number; undefined when neither. */
export function levelOf(acr: string, map: LoaMap): number | undefined {
  const mapped = map[acr];
  if (mapped !== undefined) return mapped;
  return /^\d+$/.test(acr) ? Number(acr) : undefined;
}

/**
 * The level the request asks for (the lowest of its values, as Keycloak), or `undefined` when it asks
 * for none. An essential value that is neither mapped nor a number is an error (Keycloak: 400,
 * "Invalid parameter: claims"); a non-essential one counts as the minimum level.
 */
export function requestedLevel(request: AcrRequest, map: LoaMap): { level: number | undefined } | { invalid: string } {
  const values = request.essential.length > 0 ? request.essential : request.all;
  if (values.length === 0) return { level: undefined };
  const levels: number[] = [];
  for (const value of values) {
    const level = levelOf(value, map);
    if (level === undefined && request.essential.length > 0) return { invalid: value };
    levels.push(level ?? MINIMUM_LOA);
  }
  return { level: Math.min(...levels) };
}

/** The highest-level value among `candidates` that `loa` reaches; undefined when none. */
function reachedValue(loa: number, map: LoaMap, candidates: readonly string[]): string | undefined {
  let best: { value: string; level: number } | undefined;
  for (const value of candidates) {
    const level = levelOf(value, map);
    if (level !== undefined && loa >= level && (!best || level > best.level)) best = { value, level };
  }
  return best?.value;
}

/**
 * The `acr` claim of a token, as Keycloak's AcrProtocolMapper writes it. `loa` is the level reached in the
 * authentication that issued the client's session, or `undefined` where the realm has no levels (no
 * `acr.loa.map`: Keycloak's browser flow without LoA conditions), which gives "1" for a sign-in with the
 * password and "0" for a session reused from another sign-in.
 */
export function acrClaim(loa: number | undefined, sso: boolean, map: LoaMap, request: AcrRequest): string {
  const level = loa ?? (sso ? 0 : 1);
  if (Object.keys(map).length === 0) return String(level);
  return (
    reachedValue(level, map, request.essential) ??
    reachedValue(level, map, request.all) ??
    reachedValue(level, map, Object.keys(map)) ??
    String(level)
  );
}

/** A level's name for pages: its name in the map, else "level n". */
export function levelName(level: number, map: LoaMap): string {
  return Object.entries(map).find(([, l]) => l === level)?.[0] ?? `level ${level}`;
}

/** The highest level a realm defines (its map's largest); 1 (the password) without a map. */
export function highestLevel(map: LoaMap): number {
  return Math.max(1, ...Object.values(map));
}
