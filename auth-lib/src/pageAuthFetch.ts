import { getSession } from './session/createSession';

/**
 * `fetch` with the page session's bearer token, for modules outside React. The token goes only to
 * this page's origin and `config.trustedOrigins`; on a 401 the token is refreshed once and the
 * request retried once.
 *
 * @example
 * export async function loadReports(): Promise<Report[]> {
 *   const response = await authFetch('/api/reports');
 *   if (!response.ok) throw new Error(`reports: HTTP ${response.status}`);
 *   return response.json();
 * }
 *
 * @throws AuthError `no-session` before the shell created the session; `not-authenticated` when no one is signed in.
 */
export function authFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    return getSession().authFetch(input, init);
  } catch (error) {
    return Promise.reject(error);
  }
}
