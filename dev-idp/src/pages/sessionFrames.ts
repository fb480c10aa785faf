/**
 * keycloak-js's hidden frames. The login-status frame speaks Keycloak's postMessage dialect:
 * it receives `"<clientId> <sid>"` and answers `unchanged`, `changed` or `error` to the sender.
 * Unlike Keycloak's page it asks the server to compare (`…/status`), so a session ended
 * server-side (admin logout, lifespans) reads as `changed` at the next check.
 */
export function loginStatusFrame(framePath: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Login status</title></head><body><script>
(function () {
  var init = null;
  window.addEventListener('message', function (event) {
    if (typeof event.data !== 'string' || !event.source) return;
    var space = event.data.indexOf(' ');
    var clientId = space < 0 ? event.data : event.data.slice(0, space);
    var sid = space < 0 ? '' : event.data.slice(space + 1);
    var origin = event.origin;
    var source = event.source;
    function reply(message) { source.postMessage(message, origin); }
    if (!init || init.clientId !== clientId || init.origin !== origin) {
      var query = '?client_id=' + encodeURIComponent(clientId) + '&origin=' + encodeURIComponent(origin);
      init = { clientId: clientId, origin: origin, ok: fetch(${JSON.stringify(framePath)} + '/init' + query, { cache: 'no-store' })
        .then(function (r) { return r.status === 204; }, function () { return false; }) };
    }
    init.ok.then(function (ok) {
      if (!ok) { reply('error'); return; }
      return fetch(${JSON.stringify(framePath)} + '/status?session_state=' + encodeURIComponent(sid), { cache: 'no-store' })
        .then(function (r) { return r.ok ? r.text() : 'error'; })
        .then(reply, function () { reply('error'); });
    });
  });
})();
</script></body></html>`;
}

/** Third-party-cookie check, step 1: set test cookies, go to step 2. */
export function thirdPartyCookiesStep1(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cookie check</title></head><body><script>
document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=supported; Max-Age=60; SameSite=None; Secure';
document.cookie = 'KEYCLOAK_3P_COOKIE=supported; Max-Age=60';
window.location.href = 'step2.html';
</script></body></html>`;
}

/** Third-party-cookie check, step 2: report `supported` / `unsupported` to the parent, clean up. */
export function thirdPartyCookiesStep2(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cookie check</title></head><body><script>
var supported = document.cookie.indexOf('KEYCLOAK_3P_COOKIE') !== -1;
document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=; Max-Age=0; SameSite=None; Secure';
document.cookie = 'KEYCLOAK_3P_COOKIE=; Max-Age=0';
window.parent.postMessage(supported ? 'supported' : 'unsupported', '*');
</script></body></html>`;
}
