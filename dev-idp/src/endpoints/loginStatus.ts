import { readCookies, sessionCookie } from '../http/cookies.js';
import { sendHtml } from '../http/respond.js';
import { loginStatusFrame, thirdPartyCookiesStep1, thirdPartyCookiesStep2 } from '../pages/sessionFrames.js';
import { originAllowed } from '../sessions/redirect.js';
import { OPENID_CONNECT } from '../provider/routes.js';
import type { RealmRequest } from './RealmRequest.js';

const FRAME = `${OPENID_CONNECT}/login-status-iframe.html`;

/** `…/login-status-iframe.html`: the frame keycloak-js polls every 5 s. */
export function loginStatusFrameEndpoint({ runtime, res }: RealmRequest): void {
  sendHtml(res, 200, loginStatusFrame(`${runtime.path}${FRAME}`));
}

/** `…/login-status-iframe.html/init`: 204 when the client is enabled and the origin is one of its web origins. */
export function loginStatusInitEndpoint({ runtime, res, url }: RealmRequest): void {
  const client = runtime.client(url.searchParams.get('client_id') ?? undefined);
  const origin = url.searchParams.get('origin') ?? '';
  const ok = client !== undefined && client.enabled && originAllowed(client, origin);
  res.writeHead(ok ? 204 : 403, { 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}

/**
 * `…/login-status-iframe.html/status?session_state=<sid>`: the frame's comparison, done against
 * server state. The `KEYCLOAK_SESSION` cookie counts only while its session is active (an ended
 * session's cookie is cleared here), then Keycloak's rule applies: no cookie → `changed` if the
 * page has a sid, else `unchanged`; cookie of that sid → `unchanged`; any other → `changed`.
 */
export function loginStatusCheckEndpoint({ runtime, req, res, url }: RealmRequest): void {
  const sid = url.searchParams.get('session_state') ?? '';
  const cookie = readCookies(req).KEYCLOAK_SESSION;
  const session = runtime.sessions.byCookie(cookie);
  const headers: Record<string, string> = { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' };
  if (cookie && !session) headers['Set-Cookie'] = sessionCookie(runtime, '');
  const answer = !session ? (sid ? 'changed' : 'unchanged') : session.id === sid ? 'unchanged' : 'changed';
  res.writeHead(200, headers);
  res.end(answer);
}

export function thirdPartyCookiesStep1Endpoint({ res }: RealmRequest): void {
  sendHtml(res, 200, thirdPartyCookiesStep1());
}

export function thirdPartyCookiesStep2Endpoint({ res }: RealmRequest): void {
  sendHtml(res, 200, thirdPartyCookiesStep2());
}
