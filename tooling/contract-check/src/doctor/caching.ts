import type { ReadResponse } from '../net/readUrl';
import { DOCTOR_CODES, type Problem } from './problems';

/** A file name with a content hash (as the build names them, and as deploy/nginx's cache map matches them). */
export const HASHED_FILE = /[.-][0-9a-f]{8,}\.(?:js|mjs|css|woff2?|ttf|png|jpe?g|gif|svg|ico|webp|avif|wasm)$/;

/** Whether a browser or proxy may reuse the answer without asking the server again. */
export function cacheable(cacheControl: string | undefined): boolean {
  if (!cacheControl) return true; // heuristic caching from Last-Modified
  const directives = cacheControl.toLowerCase();
  if (/\bno-store\b|\bno-cache\b/.test(directives)) return false;
  const maxAge = /\b(?:s-)?max-age=(\d+)/g;
  const ages = [...directives.matchAll(maxAge)].map((m) => Number(m[1]));
  return ages.length === 0 || ages.some((age) => age > 0);
}

/** A problem when a file that changes at each deployment (index.html, config.json, a manifest) may be cached. */
export function mustRevalidate(response: ReadResponse, what: string): Problem | undefined {
  const cacheControl = response.headers['cache-control'];
  if (!cacheable(cacheControl)) return undefined;
  return {
    code: DOCTOR_CODES.cacheable,
    what: `${what} (${response.url}) may be cached: Cache-Control is ${cacheControl ? `"${cacheControl}"` : 'missing'}.`,
    breaks:
      'After a deployment, visitors keep the old file: an old registry or manifest points at files that are gone, and pages fail to load until the cache expires.',
    fix: 'Serve it with "Cache-Control: no-cache" (deploy/nginx does: gatehouse-http.conf\'s cache map).',
  };
}

/** A problem when a content-hashed file is not served as immutable. */
export function mustBeImmutable(response: ReadResponse): Problem | undefined {
  const cacheControl = response.headers['cache-control'] ?? '';
  if (/\bimmutable\b/i.test(cacheControl) && cacheable(cacheControl)) return undefined;
  return {
    code: DOCTOR_CODES.notImmutable,
    what: `${response.url} has a content hash in its name but Cache-Control is ${cacheControl ? `"${cacheControl}"` : 'missing'}.`,
    breaks: 'Visitors download or revalidate the same code again on every visit: slower pages, more traffic.',
    fix: 'Serve content-hashed files with "Cache-Control: public, max-age=31536000, immutable" (deploy/nginx does).',
  };
}
