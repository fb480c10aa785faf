import { AuthError } from '../../errors';

/**
 * The parameters a provider appends to the address when it sends the visitor back (keycloak-js reads them
 * from the fragment or the query). None of them may travel into the next `redirect_uri`: a stale
 * `error=login_required` or `state` there is read back as the answer to the next sign-in and fails it
 * (decisions/0028).
 */
export const CALLBACK_PARAMETERS: readonly string[] = Object.freeze([
  'code',
  'state',
  'session_state',
  'iss',
  'error',
  'error_description',
]);

function isCallbackParameter(part: string): boolean {
  const equals = part.indexOf('=');
  const raw = equals === -1 ? part : part.slice(0, equals);
  let name: string;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    name = raw;
  }
  return CALLBACK_PARAMETERS.includes(name);
}

/** `a=1&code=x&b` → `a=1&b`; the other parts stay byte for byte as they were. */
function withoutCallbackParts(params: string): string {
  return params
    .split('&')
    .filter((part) => part !== '' && !isCallbackParameter(part))
    .join('&');
}

/**
 * The address without the provider's callback parameters, in its query and its fragment; everything else
 * (path, other parameters, a fragment such as `#section`) is kept as it was. Works on a path (`/a?b#c`)
 * and on an absolute URL alike.
 */
export function withoutCallbackParameters(address: string): string {
  const hashAt = address.indexOf('#');
  const beforeHash = hashAt === -1 ? address : address.slice(0, hashAt);
  const fragment = hashAt === -1 ? null : address.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt === -1 ? '' : withoutCallbackParts(beforeHash.slice(queryAt + 1));
  const hash = fragment === null ? '' : withoutCallbackParts(fragment);
  return `${base}${query ? `?${query}` : ''}${hash ? `#${hash}` : ''}`;
}

/**
 * The one place that turns where the visitor should come back to into a `redirect_uri` for keycloak-js:
 * only paths of this app (an absolute or protocol-relative URL here would be an open redirect), and never
 * with callback parameters, whichever way the caller read the address (router location, `location.href`).
 */
export function pageUrl(origin: string, path: string, method: 'login' | 'logout'): string {
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) {
    throw new AuthError(
      'invalid-argument',
      `${method}({ redirectTo: ${JSON.stringify(path)} }): redirectTo must be a path of this app starting with "/", e.g. "/reports".`,
    );
  }
  return `${origin}${withoutCallbackParameters(path)}`;
}

/**
 * Where keycloak-js's own redirects come back to (check-sso's full-page fallback when the frames are
 * unavailable): the page's address at init, without callback parameters.
 */
export function currentPageUrl(location: Pick<Location, 'origin' | 'pathname' | 'search' | 'hash'>): string {
  const { origin, pathname, search, hash } = location;
  return `${origin}${withoutCallbackParameters(`${pathname}${search}${hash}`)}`;
}
