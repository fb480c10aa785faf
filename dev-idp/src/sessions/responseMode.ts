/**
 * An authorization response's parameters added to the client's redirect URI, as Keycloak does:
 * in `query` mode to its query; in `fragment` mode after the fragment the URI already has
 * (keycloak-js sends `redirect_uri=location.href`, so `#/admin/users?tab=x` must survive the round trip).
 */
export function withParameters(redirectUri: string, mode: 'query' | 'fragment', params: Record<string, string>): string {
  const url = new URL(redirectUri);
  if (mode === 'query') {
    for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
    return url.href;
  }
  const existing = url.hash.slice(1);
  const added = new URLSearchParams(params).toString();
  url.hash = '';
  return `${url.href}#${existing ? `${existing}&${added}` : added}`;
}
