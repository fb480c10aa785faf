import { getDomain } from 'tldts';

/**
 * The site of an origin as browsers count it for cookies: scheme + registrable domain (public suffix list).
 * A name without a registrable domain (an IP address, `localhost`) is its own site.
 */
export function siteOf(origin: string): string {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
  return `${url.protocol}//${domain}`;
}
