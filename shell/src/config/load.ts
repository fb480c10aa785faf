import { CONFIG_REQUEST, CONFIG_URL, requestConfig } from './early';
import type { ConfigResult } from './types';
import { acceptConfig } from './accept';

export { CONFIG_URL };

/**
 * Fetches and validates the runtime config. Never throws: a missing, unreadable or invalid config
 * comes back as problems that the start page lists.
 */
export async function loadConfig(fetchConfig: typeof fetch = fetch, url: string = CONFIG_URL): Promise<ConfigResult> {
  let response: Response;
  try {
    response = await fetchConfig(url, CONFIG_REQUEST);
  } catch (error) {
    return { ok: false, problems: [`${url} could not be fetched (${describe(error)}). Is the shell's server running?`] };
  }
  if (!response.ok) {
    return { ok: false, problems: [`${url} answered HTTP ${response.status}. Deploy a config.json next to the shell's index.html.`] };
  }
  let text: string;
  try {
    // fatal: bytes that are not UTF-8 are a problem to fix, never a silent "\uFFFD" in a name or a URL
    text = new TextDecoder('utf-8', { fatal: true }).decode(await response.arrayBuffer());
  } catch {
    return { ok: false, problems: [`${url} is not valid UTF-8. Save it as UTF-8 (every string in it, too).`] };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`${url} is not valid JSON (${describe(error)}).`] };
  }
  return acceptConfig(raw);
}

let pageConfig: Promise<ConfigResult> | null = null;

/**
 * The page's config: the response to the page entry's early request (requestConfig), read and validated
 * once for everything that needs it (the sign-in check, the bootstrap); a response body reads only once.
 */
export function loadPageConfig(): Promise<ConfigResult> {
  pageConfig ??= loadConfig(() => requestConfig());
  return pageConfig;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
