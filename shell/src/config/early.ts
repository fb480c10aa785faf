/** Where the shell finds its runtime config: next to its index.html, never inside the bundle. */
export const CONFIG_URL = '/config.json';
/** How it is requested: never from a cache, so a changed registry applies on the next load. */
export const CONFIG_REQUEST: RequestInit = { cache: 'no-store', headers: { Accept: 'application/json' } };

let pending: Promise<Response> | null = null;

/**
 * The page's one request for config.json. The page entry starts it first thing, so the config downloads
 * while the shared modules and the shell's code do; the sign-in check and the bootstrap then read the same
 * response (through `loadPageConfig`, which validates it once) instead of requesting it after them. This
 * file imports nothing, so the page entry stays small.
 *
 * @example
 * requestConfig().catch(() => undefined); // src/index.ts, before the async boundary
 * const result = await loadPageConfig();  // src/bootstrap.tsx: the same response, validated
 */
export function requestConfig(fetchConfig?: typeof fetch): Promise<Response> {
  pending ??= fetchConfig ? fetchConfig(CONFIG_URL, CONFIG_REQUEST) : fetch(CONFIG_URL, CONFIG_REQUEST);
  return pending;
}
